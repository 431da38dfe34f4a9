import { z } from "zod";

// The destination types and each sink's `config`, checked with zod; what of a config may be shown
// (credentials masked) and the one-line target the Outbound page lists. Plain module: no server code,
// the page and the routes share it.

export const SINK_TYPES = ["postgres", "mysql", "s3", "rabbitmq", "nats", "redis"] as const;
export type SinkType = (typeof SINK_TYPES)[number];
export const DESTINATION_TYPES = ["webhook", ...SINK_TYPES] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

export function isSinkType(t: string): t is SinkType {
  return (SINK_TYPES as readonly string[]).includes(t);
}

const text = (name: string, max = 255) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, { error: `${name} must not be empty` })
    .max(max, { error: `${name} must be at most ${max} characters` });

/**
 * The query options a sink's URL may carry, each with the values it may take. Drivers read many more from
 * the URL, some of them files (pg's sslrootcert, sslcert, sslkey), sockets (?host=, ?socketPath=, ?path=)
 * or whole connectors (ioredis's ?Connector=): every other option is refused when the config is parsed,
 * on save and again when a sink is opened, before a driver sees it.
 */
export const URL_OPTIONS: Record<Exclude<SinkType, "s3">, Record<string, readonly string[] | "integer">> = {
  postgres: {
    sslmode: ["disable", "prefer", "require", "verify-full", "no-verify"],
    ssl: ["true", "false", "1", "0"],
  },
  mysql: {},
  rabbitmq: { heartbeat: "integer", frameMax: "integer", channelMax: "integer" },
  nats: {},
  redis: {},
};

/** Why a URL's query option is refused, or null when the type allows it with that value. */
function optionRefusal(type: Exclude<SinkType, "s3">, key: string, value: string): string | null {
  const allowed = URL_OPTIONS[type];
  const rule = Object.hasOwn(allowed, key) ? allowed[key] : undefined;
  const names = Object.keys(allowed);
  // The option's name only: its value may be a path whose existence is not the caller's business.
  const shown = JSON.stringify(key.slice(0, 64));
  if (!rule)
    return names.length === 0
      ? `url option ${shown} is not allowed: a ${type} sink's URL takes no query options`
      : `url option ${shown} is not allowed (allowed: ${names.join(", ")})`;
  if (rule === "integer") return /^\d{1,9}$/.test(value) ? null : `url option ${shown} must be a whole number`;
  return rule.includes(value) ? null : `url option ${shown} must be one of ${rule.join(", ")}`;
}

/**
 * A connection URL of `type` with one of `schemes`, a host (a name or an address, not a percent-encoded
 * socket path) and only the query options the type allows; user and password in it are credentials
 * (masked when shown).
 */
const connUrl = (type: Exclude<SinkType, "s3">, schemes: string[]) =>
  text("url", 2048)
    .refine(
      (u) => URL.canParse(u) && schemes.includes(new URL(u).protocol.slice(0, -1)) && new URL(u).hostname !== "",
      { error: `url must be a ${schemes.map((s) => `${s}://`).join(" or ")} URL with a host`, abort: true },
    )
    .superRefine((raw, ctx) => {
      const u = new URL(raw);
      if (u.hostname.includes("%"))
        ctx.addIssue({ code: "custom", message: "url host must be a name or an address (no percent-encoding)" });
      for (const [key, value] of u.searchParams) {
        const why = optionRefusal(type, key, value);
        if (why) return void ctx.addIssue({ code: "custom", message: why });
      }
    });

// A table name goes into SQL as an identifier: letters, digits and underscores only, quoted by the sink.
const table = z.string({ error: "table is required" }).regex(/^[A-Za-z_][A-Za-z0-9_]{0,54}$/, {
  error: "table must be letters, digits and underscores (at most 55), not starting with a digit",
});

export const sinkConfigSchemas = {
  postgres: z.strictObject({ url: connUrl("postgres", ["postgres", "postgresql"]), table }),
  mysql: z.strictObject({ url: connUrl("mysql", ["mysql"]), table }),
  s3: z.strictObject({
    endpoint: text("endpoint", 2048)
      .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), {
        error: "endpoint must be an http:// or https:// URL",
      })
      .optional(),
    region: text("region", 64),
    bucket: z
      .string({ error: "bucket is required" })
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: "bucket must be a valid S3 bucket name" }),
    prefix: z
      .string({ error: "prefix is required (it may be empty)" })
      .max(512)
      .regex(/^[^\u0000-\u001f]*$/, { error: "prefix must not hold control characters" })
      .transform((p) => p.replace(/^\/+|\/+$/g, "")),
    accessKeyId: text("accessKeyId", 256),
    secretAccessKey: text("secretAccessKey", 256),
    forcePathStyle: z.boolean({ error: "forcePathStyle must be true or false" }).optional(),
  }),
  rabbitmq: z.strictObject({
    url: connUrl("rabbitmq", ["amqp", "amqps"]),
    // "" is the default exchange (routing key = queue name).
    exchange: z.string({ error: 'exchange is required ("" is the default exchange)' }).max(255),
    routingKey: z.string({ error: "routingKey is required" }).max(255),
  }),
  nats: z.strictObject({
    url: connUrl("nats", ["nats", "tls"]),
    subject: text("subject").regex(/^[^\s*>]+$/, { error: "subject must be a plain subject (no spaces or wildcards)" }),
  }),
  redis: z.strictObject({ url: connUrl("redis", ["redis", "rediss"]), stream: text("stream", 512) }),
} satisfies Record<SinkType, z.ZodType>;

export type SinkConfig<T extends SinkType = SinkType> = z.output<(typeof sinkConfigSchemas)[T]>;

const MASK = "••••";

/** A credential shown as its last four characters at most (none when it is short). */
export function maskSecret(s: string): string {
  return s.length >= 12 ? `${MASK}${s.slice(-4)}` : MASK;
}

/** A connection URL with its password (and any query value) masked; the user name stays. */
export function maskUrl(raw: string): string {
  if (!URL.canParse(raw)) return MASK;
  const u = new URL(raw);
  if (u.password) u.password = MASK;
  for (const k of [...u.searchParams.keys()]) u.searchParams.set(k, MASK);
  return decodeURIComponent(u.toString());
}

/** A path segment shown as it is: a plain lowercase word (`services`, `webhooks`, `catch`), not an id or a key. */
const WORD = /^[a-z][a-z._-]{0,15}$/;

/**
 * A URL path with everything from its first segment that is not a plain word masked: Slack
 * (`/services/T…/B…/<token>`), Discord (`/api/webhooks/<id>/<token>`) and Zapier (`/hooks/catch/<id>/<key>/`)
 * put the credential in the path, where a query-value mask does not reach.
 */
export function maskPath(pathname: string): string {
  const segments = pathname.split("/").slice(1);
  const kept = segments.findIndex((seg) => !WORD.test(seg) && seg !== "");
  if (kept === -1) return pathname;
  // The last four characters of the last segment, when it is long enough to keep its secret without them.
  const last = segments.filter((seg) => seg !== "").at(-1) ?? "";
  return `/${[...segments.slice(0, kept), maskSecret(last)].join("/")}`;
}

/**
 * An HTTP URL (a webhook's, S3's endpoint) as any reader may see it: user info and every query value
 * masked, the path past its plain words masked (maskPath), no fragment.
 */
export function shownUrl(raw: string): string {
  if (!URL.canParse(raw)) return MASK;
  const u = new URL(raw);
  const user = u.username || u.password ? `${MASK}@` : "";
  const query = [...new Set(u.searchParams.keys())].map((k) => `${k}=${MASK}`).join("&");
  const path = u.pathname === "/" ? "" : maskPath(u.pathname);
  return `${u.protocol}//${user}${u.host}${path}${query ? `?${query}` : ""}`;
}

/** The config as it may be shown: every credential masked. */
export function maskedConfig(type: SinkType, config: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...config };
  if (typeof out.url === "string") out.url = maskUrl(out.url);
  // An S3-compatible endpoint may carry a key in its user info, query or path (a gateway's token).
  if (typeof out.endpoint === "string") out.endpoint = shownUrl(out.endpoint);
  if (type === "s3") {
    if (typeof out.secretAccessKey === "string") out.secretAccessKey = maskSecret(out.secretAccessKey);
    if (typeof out.accessKeyId === "string") out.accessKeyId = maskSecret(out.accessKeyId);
  }
  return out;
}

/** Where a sink writes, in one line without credentials: kept in Destination.url for lists and checks. */
export function sinkTarget(type: SinkType, config: Record<string, unknown>): string {
  const c = maskedConfig(type, config);
  const s = (k: string) => String(c[k] ?? "");
  switch (type) {
    case "postgres":
    case "mysql":
      return `${s("url")}#${s("table")}`;
    case "s3":
      return `s3://${s("bucket")}/${s("prefix")}${c.endpoint ? ` at ${s("endpoint")}` : ""}`;
    case "rabbitmq":
      return `${s("url")} exchange "${s("exchange")}" key "${s("routingKey")}"`;
    case "nats":
      return `${s("url")} subject ${s("subject")}`;
    case "redis":
      return `${s("url")} stream ${s("stream")}`;
  }
}

/** The credential whose last four characters the page may show (a URL's password, S3's secret key). */
export function sinkCredential(type: SinkType, config: Record<string, unknown>): string {
  if (type === "s3") return String(config.secretAccessKey ?? "");
  if (typeof config.url === "string" && URL.canParse(config.url))
    return decodeURIComponent(new URL(config.url).password);
  return "";
}
