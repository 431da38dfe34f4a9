// Renders docs/configuration.md from lib/config.ts's envSchema: every variable with its default, the
// values it accepts (read from the schema itself) and its description (`.describe("…")`, or
// `.meta({ description, defaultText })` where the default is worked out at start-up rather than fixed).
// `npm run docs:config` writes the file; test/config-docs.test.ts fails when it is stale.
import { z } from "zod";
import { envSchema, SECRET_VARIABLES } from "../../lib/config";

export const CONFIG_DOCS_PATH = "docs/configuration.md";

/**
 * Sections of the reference, each starting at a variable and running, in the schema's order, up to the
 * next section's first variable: a variable added to the schema lands in the section it is written in.
 */
const SECTIONS: ReadonlyArray<readonly [title: string, firstVariable: string]> = [
  ["Server and database", "NODE_ENV"],
  ["The platform", "GEONODE_SCRAPER_API_KEY"],
  ["Accounts, sessions and sign-in", "TALLY_OPERATOR_PASSWORD"],
  ["Receiving webhooks", "TALLY_PUBLIC_URL"],
  ["Retention and secret rotation", "TALLY_INBOUND_LOG_RETENTION_DAYS"],
  ["Reconciliation", "TALLY_RECONCILE_INTERVAL_MINUTES"],
  ["Process roles and scheduling", "TALLY_WORKER"],
  ["Queue and worker", "TALLY_WORKER_CONCURRENCY"],
  ["Platform calls and polling", "TALLY_API_RPS"],
  ["Demo mode and ports", "TALLY_DEMO_TRAFFIC"],
  ["Push: the default destination and outbound retries", "TALLY_FORWARD_URL"],
  ["Metrics", "TALLY_METRICS_TOKEN"],
  ["Alerts", "TALLY_ALERTS"],
  ["Logs", "TALLY_LOG_LEVEL"],
];

export type ConfigVariable = {
  name: string;
  description: string | undefined;
  defaultValue: string;
  allowed: string;
  secret: boolean;
};

type Def = { type: string; [k: string]: unknown };
const def = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The variables of envSchema in schema order, with what the reference shows of each. */
export function configVariables(): ConfigVariable[] {
  return Object.entries(envSchema.shape).map(([name, schema]) => {
    const meta = z.globalRegistry.get(schema) as { description?: string; defaultText?: string } | undefined;
    return {
      name,
      description: meta?.description?.trim() || undefined,
      defaultValue: meta?.defaultText ?? defaultOf(schema as z.ZodType),
      allowed: allowedValues(schema as z.ZodType),
      secret: SECRET_VARIABLES.has(name),
    };
  });
}

function defaultOf(schema: z.ZodType): string {
  for (let s: z.ZodType | undefined = schema; s; s = inner(s)) {
    const d = def(s);
    if (d.type === "default") {
      const value = typeof d.defaultValue === "function" ? (d.defaultValue as () => unknown)() : d.defaultValue;
      return `\`${String(value)}\``;
    }
  }
  return "unset";
}

/** The schema one wrapper further in: a default's or optional's inner type; a pipe's checked side. */
function inner(schema: z.ZodType): z.ZodType | undefined {
  const d = def(schema);
  if (d.type === "default" || d.type === "optional" || d.type === "nullable") return d.innerType as z.ZodType;
  // optionalString.pipe(check): the check is on the out side; url.transform(…): on the in side.
  if (d.type === "pipe")
    return def(d.out as z.ZodType).type === "transform" ? (d.in as z.ZodType) : (d.out as z.ZodType);
  return undefined;
}

function allowedValues(schema: z.ZodType): string {
  let s: z.ZodType = schema;
  for (let next = inner(s); next; next = inner(s)) s = next;
  const d = def(s);
  if (d.type === "enum")
    return Object.values(d.entries as Record<string, string>)
      .map((v) => `\`${v}\``)
      .join(", ");
  if (d.type === "number") {
    const n = s as unknown as z.ZodNumber;
    const kind = n.isInt ? "whole number" : "number (fractions allowed)";
    const min = n.minValue ?? undefined;
    const max = n.maxValue !== null && n.maxValue < Number.MAX_SAFE_INTEGER ? n.maxValue : undefined;
    if (min !== undefined && max !== undefined) return `${kind}, ${fmt(min)}–${fmt(max)}`;
    if (min !== undefined) return `${kind}, at least ${fmt(min)}`;
    return kind;
  }
  if (d.type === "string") {
    if (d.format === "url") {
      const protocol = (d.protocol as RegExp | undefined)?.source;
      return protocol === "^https?$" ? "an http(s) URL" : protocol === "^smtps?$" ? "an smtp(s) URL" : "a URL";
    }
    const parts = ((d.checks as z.ZodType[] | undefined) ?? []).map((c) => {
      const check = def(c) as Def & { check?: string; minimum?: number };
      if (check.check === "min_length")
        return check.minimum === 1 ? "not empty" : `at least ${check.minimum} characters`;
      return errorMessage(check)
        ?.replace(/^must (be )?/, "")
        .replace(/\s*\([^)]*\)/g, "");
    });
    return parts.filter(Boolean).join("; ") || "text";
  }
  return "";
}

/** The message a check was declared with (`{ error: "must be …" }`), if it is a fixed one. */
function errorMessage(check: Def): string | undefined {
  const error = check.error as ((issue: unknown) => unknown) | undefined;
  if (typeof error !== "function") return undefined;
  try {
    const message = error({});
    return typeof message === "string" ? message : undefined;
  } catch {
    return undefined;
  }
}

const fmt = (n: number) => (Number.isInteger(n) && Math.abs(n) >= 10_000 ? n.toLocaleString("en-US") : String(n));

/** A table cell: one line, pipes escaped. */
const cell = (s: string) => s.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");

/** docs/configuration.md as `npm run docs:config` writes it; throws when a variable has no description. */
export function renderConfigDocs(): string {
  const variables = configVariables();
  const undescribed = variables.filter((v) => !v.description).map((v) => v.name);
  if (undescribed.length) {
    throw new Error(
      `lib/config.ts: give these envSchema variables a .describe("…") sentence: ${undescribed.join(", ")}`,
    );
  }
  const names = variables.map((v) => v.name);
  const starts = SECTIONS.map(([title, first]) => {
    const at = names.indexOf(first);
    if (at < 0)
      throw new Error(`scripts/config-docs/render.ts: section "${title}" starts at ${first}, not in envSchema`);
    return { title, at };
  });
  if (starts.some((s, i) => i > 0 && s.at <= starts[i - 1].at)) {
    throw new Error("scripts/config-docs/render.ts: SECTIONS must follow envSchema's order");
  }
  starts[0].at = 0; // a variable added above the first section's still belongs to it

  const out = [
    "# Configuration",
    "",
    "<!-- Generated by `npm run docs:config` from lib/config.ts (envSchema): edit the descriptions there, not here. -->",
    "",
    "All configuration comes from the environment, read and validated in one place (`lib/config.ts`).",
    "A bad value stops the start with a message naming each bad variable and why (secrets are never echoed).",
    "Settings in the dashboard shows each variable's value in effect and its source (`set`, `default`,",
    "`derived`, or not set), with secrets masked.",
    "",
    "Variables marked *secret* are never shown in full: masked (last four characters) in Settings and left",
    "out of error messages and logs.",
    "",
  ];
  starts.forEach(({ title, at }, i) => {
    out.push(`## ${title}`, "", "| variable | default | allowed | description |", "|---|---|---|---|");
    for (const v of variables.slice(at, starts[i + 1]?.at ?? variables.length)) {
      const description = `${v.description}${v.secret ? " *Secret.*" : ""}`;
      out.push(`| \`${v.name}\` | ${cell(v.defaultValue)} | ${cell(v.allowed)} | ${cell(description)} |`);
    }
    out.push("");
  });
  return `${out.join("\n").trimEnd()}\n`;
}
