import { z } from "zod";

// The escalation ladder (issue 39): what a suspect or BLOCKED URL is sent with next. Each rung is a set
// of the platform's options laid over the run's own request ({formats, render_js}); rung 0 is what the
// run's chunks go out with first. A URL that fails its checks at the last rung is final. Pure (no server
// code): the create API, the forms and the submitter read it.

export const MAX_RUNGS = 6;
/** What a page costs on the platform (its price table: one token a successful page, no surcharge). */
export const TOKENS_PER_PAGE = 1;

export const rungSchema = z.strictObject(
  {
    renderJs: z.boolean({ error: "must be true or false" }).optional(),
    waitConfig: z
      .strictObject(
        {
          waitUntil: z
            .enum(["commit", "domcontentloaded", "load", "networkidle"], {
              error: "must be commit, domcontentloaded, load or networkidle",
            })
            .optional(),
          waitFor: z.string().trim().min(1, { error: "must not be empty" }).max(300).optional(),
          waitTimeout: z.number().int().min(0).max(120_000, { error: "must be at most 120000 ms" }).optional(),
        },
        { error: "must be an object" },
      )
      .optional(),
    proxyType: z
      .enum(["residential", "datacenter", "mix"], { error: "must be residential, datacenter or mix" })
      .optional(),
    proxyCountry: z
      .string()
      .regex(/^[A-Za-z]{2}$/, { error: "must be an ISO 3166-1 alpha-2 code" })
      .optional(),
  },
  { error: "each rung must be an object" },
);
export type Rung = z.infer<typeof rungSchema>;

export const escalationSchema = z
  .array(rungSchema, { error: "must be a list of rungs" })
  .min(1, { error: "must hold at least one rung" })
  .max(MAX_RUNGS, { error: `at most ${MAX_RUNGS} rungs` });

/** plain → render_js → render_js + wait_config → proxy.type residential. */
export const DEFAULT_ESCALATION: readonly Rung[] = Object.freeze([
  {},
  { renderJs: true },
  { renderJs: true, waitConfig: { waitUntil: "networkidle" as const } },
  { proxyType: "residential" as const },
]);

/** A short name for a rung, as pages and exports show it. */
export function rungName(r: Rung | undefined): string {
  if (!r) return "?";
  const parts: string[] = [];
  if (r.renderJs) parts.push("render_js");
  if (r.waitConfig) parts.push(`wait_config${r.waitConfig.waitUntil ? `(${r.waitConfig.waitUntil})` : ""}`);
  if (r.proxyType) parts.push(`proxy ${r.proxyType}`);
  if (r.proxyCountry) parts.push(`country ${r.proxyCountry.toUpperCase()}`);
  return parts.length === 0 ? "plain" : parts.join(" + ");
}

/** The platform options a rung adds to the run's request (snake_case, as POST /v1/batch takes them). */
export type RungOptions = {
  render_js?: boolean;
  wait_config?: {
    wait_until?: "commit" | "domcontentloaded" | "load" | "networkidle";
    wait_for?: string;
    wait_timeout?: number;
  };
  proxy?: { type?: "residential" | "datacenter" | "mix"; country?: string };
};

export function rungOptions(r: Rung | undefined): RungOptions {
  if (!r) return {};
  const out: RungOptions = {};
  if (r.renderJs !== undefined) out.render_js = r.renderJs;
  if (r.waitConfig) {
    out.render_js = true;
    out.wait_config = {
      ...(r.waitConfig.waitUntil ? { wait_until: r.waitConfig.waitUntil } : {}),
      ...(r.waitConfig.waitFor ? { wait_for: r.waitConfig.waitFor } : {}),
      ...(r.waitConfig.waitTimeout !== undefined ? { wait_timeout: r.waitConfig.waitTimeout } : {}),
    };
  }
  if (r.proxyType || r.proxyCountry)
    out.proxy = {
      ...(r.proxyType ? { type: r.proxyType } : {}),
      ...(r.proxyCountry ? { country: r.proxyCountry.toUpperCase() } : {}),
    };
  return out;
}

/** A stored ladder (Run.escalation JSON); the default when absent or unreadable. */
export function readEscalation(json: string | null | undefined): Rung[] {
  if (!json) return [...DEFAULT_ESCALATION];
  try {
    const parsed = escalationSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : [...DEFAULT_ESCALATION];
  } catch {
    return [...DEFAULT_ESCALATION];
  }
}

/** maxTokens as the APIs take it: a whole number of tokens, 1 or more; null or absent: no cap. */
export const maxTokensSchema = z
  .number({ error: "must be a number" })
  .int({ error: "must be a whole number" })
  .min(1, { error: "must be 1 or more (leave it out for no cap)" })
  .max(1_000_000_000, { error: "must be at most 1000000000" })
  .nullable()
  .optional();
