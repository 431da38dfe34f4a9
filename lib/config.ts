import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { parseAllowance } from "./http/address-guard";
import { whsecSchema } from "./outbound/contracts";

// The only module that reads the environment. Everything else asks getConfig().

const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce
    .number({ error: "must be a number" })
    .int({ error: "must be a whole number" })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` })
    .default(def);
const onOff = (def: "on" | "off") => z.enum(["on", "off"], { error: 'must be "on" or "off"' }).default(def);
const httpUrl = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
  .transform((u) => u.replace(/\/+$/, ""));
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v));

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: int(3000, 1, 65535),
  // Empty: every interface (IPv4 and IPv6), as `next start` does.
  TALLY_HOST: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9.:[\]-]+$/, { error: "must be a host name or an IP address such as 127.0.0.1" })
      .optional(),
  ),
  DATABASE_URL: z
    .string()
    .regex(/^(file:.+|postgres(ql)?:\/\/.+)/, {
      error:
        'must be a SQLite URL such as "file:./data/tally.db" or a PostgreSQL URL such as "postgresql://user@host:5432/tally"',
    })
    .default("file:./data/tally.db"),
  GEONODE_SCRAPER_API_KEY: optionalString,
  SCRAPER_API_BASE_URL: optionalString.pipe(httpUrl.optional()),
  GEONODE_WEBHOOK_SECRET: optionalString,
  TALLY_OPERATOR_PASSWORD: optionalString.pipe(
    z.string().min(8, { error: "must be at least 8 characters" }).optional(),
  ),
  TALLY_API_TOKEN: optionalString.pipe(z.string().min(16, { error: "must be at least 16 characters" }).optional()),
  TALLY_SESSION_SECRET: optionalString.pipe(z.string().min(32, { error: "must be at least 32 characters" }).optional()),
  TALLY_SESSION_TTL_HOURS: int(12, 1, 24 * 30),
  TALLY_LOGIN_MAX_ATTEMPTS: int(5, 1, 1000),
  TALLY_TRUSTED_PROXY_HOPS: int(0, 0, 10),
  TALLY_LOGIN_WINDOW_SECONDS: int(900, 10, 86_400),
  TALLY_PUBLIC_URL: optionalString.pipe(httpUrl.optional()),
  TALLY_DELIVERY_MODE: z
    .enum(["webhooks", "polling", "both"], { error: 'must be "webhooks", "polling" or "both"' })
    .default("webhooks"),
  TALLY_WEBHOOK_SCHEME: z.enum(["hmac", "standard"], { error: 'must be "hmac" or "standard"' }).default("hmac"),
  TALLY_WEBHOOK_SIGNATURE_HEADER: z.string().min(1).default("X-Webhook-Signature"),
  TALLY_WEBHOOK_SIGNATURE_ALGORITHM: z
    .enum(["sha256", "sha512"], { error: 'must be "sha256" or "sha512"' })
    .default("sha256"),
  TALLY_WEBHOOK_SIGNATURE_ENCODING: z.enum(["hex", "base64"], { error: 'must be "hex" or "base64"' }).default("hex"),
  TALLY_WEBHOOK_TOLERANCE_SECONDS: int(300, 1, 86_400),
  TALLY_WEBHOOK_MAX_BODY_BYTES: int(1_048_576, 1024, 64 * 1_048_576),
  TALLY_REQUEST_TIMEOUT_SECONDS: int(30, 1, 3600),
  TALLY_INBOUND_LOG_RETENTION_DAYS: int(14, 1, 3650),
  TALLY_HISTORY_RETENTION_DAYS: int(30, 1, 3650),
  TALLY_PREVIOUS_SECRET_TTL_SECONDS: int(300, 0, 86_400),
  TALLY_ROTATION_SETTLE_SECONDS: int(30, 0, 3600),
  // Fractions allowed (0.05 = 3 s), for short schedules in tests.
  TALLY_RECONCILE_INTERVAL_MINUTES: z.coerce
    .number({ error: "must be a number" })
    .min(0, { error: "must be at least 0" })
    .max(24 * 60, { error: `must be at most ${24 * 60}` })
    .default(10),
  TALLY_RECONCILE_THRESHOLD_SECONDS: int(600, 0, 7 * 86_400),
  // Scheduled reconciliations read only what is new since their watermark; a full scan of the platform's
  // history at most this often (0: every scheduled run is a full scan). Fractions allowed.
  TALLY_RECONCILE_FULL_SCAN_HOURS: z.coerce
    .number({ error: "must be a number of hours" })
    .min(0, { error: "must be at least 0" })
    .max(30 * 24, { error: `must be at most ${30 * 24} (30 days)` })
    .default(24),
  TALLY_PENDING_ALERT_MINUTES: int(60, 1, 7 * 24 * 60),
  TALLY_WORKER: onOff("on"),
  // on: this process runs the schedules (single-flight across processes); off: none of them;
  // external: no loops at all (no schedules, no in-server worker): a scheduler calls /api/cron/*.
  TALLY_SCHEDULER: z.enum(["on", "off", "external"], { error: 'must be "on", "off" or "external"' }).default("on"),
  TALLY_CRON_SECRET: optionalString.pipe(z.string().min(16, { error: "must be at least 16 characters" }).optional()),
  TALLY_WORKER_CONCURRENCY: int(4, 1, 64),
  TALLY_QUEUE_MAX_ATTEMPTS: int(10, 1, 100),
  TALLY_LEASE_SECONDS: int(60, 5, 3600),
  TALLY_ITEM_TIMEOUT_SECONDS: int(600, 1, 86_400),
  TALLY_RESUBMIT_MAX_CHAIN: int(2, 0, 10),
  TALLY_API_RPS: int(10, 1, 1000),
  TALLY_API_TIMEOUT_MS: int(30_000, 100, 600_000),
  TALLY_POLL_INITIAL_MS: int(1000, 10, 600_000),
  TALLY_POLL_MAX_MS: int(30_000, 10, 3_600_000),
  TALLY_POLL_DEADLINE_MINUTES: int(60, 1, 7 * 24 * 60),
  TALLY_POLL_NO_WEBHOOK_SECONDS: int(300, 1, 86_400),
  TALLY_DEMO_TRAFFIC: onOff("on"),
  TALLY_DEMO_JOBS_PER_MINUTE: int(4, 0, 600),
  TALLY_SIM_PORT: int(4010, 0, 65535),
  TALLY_RECEIVER_PORT: int(3001, 1, 65535),
  // Forwarding (Tally as a webhook sender): a default destination, the inline size limit, retries.
  TALLY_FORWARD_URL: optionalString.pipe(z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional()),
  TALLY_FORWARD_SECRET: optionalString.pipe(whsecSchema.optional()),
  TALLY_ALLOW_PRIVATE_DESTINATIONS: optionalString
    .pipe(
      z
        .string()
        .refine(
          (v) => {
            try {
              parseAllowance(v);
              return true;
            } catch {
              return false;
            }
          },
          { error: 'must be "all" or addresses and CIDRs separated by commas, such as "127.0.0.1,10.0.0.0/8"' },
        )
        .optional(),
    )
    .describe(
      "Private, loopback and link-local addresses that destinations registered at run time (API and pages) may point at: `all`, or CIDRs and addresses separated by commas (e.g. `127.0.0.1/32,10.0.0.0/8`). Unset: none (addresses in the environment, such as TALLY_FORWARD_URL, are always allowed).",
    ),
  TALLY_FORWARD_MAX_BYTES: int(262_144, 0, 16 * 1_048_576),
  TALLY_FORWARD_RETRY_HOURS: int(24, 1, 24 * 30),
  TALLY_FORWARD_TIMEOUT_MS: int(10_000, 100, 120_000),
  TALLY_FORWARD_RETRY_INITIAL_MS: int(5_000, 10, 3_600_000),
  TALLY_FORWARD_RETRY_MAX_MS: int(3_600_000, 10, 86_400_000),
  // Metrics and alerts (lib/metrics/, lib/alerts/).
  TALLY_METRICS_TOKEN: optionalString.pipe(z.string().min(16, { error: "must be at least 16 characters" }).optional()),
  // `npm run worker` only: the port of its own GET /api/metrics and /api/health (unset: none).
  TALLY_METRICS_PORT: optionalString.pipe(
    z.coerce
      .number<string>({ error: "must be a number" })
      .int({ error: "must be a whole number" })
      .min(1, { error: "must be at least 1" })
      .max(65535, { error: "must be at most 65535" })
      .optional(),
  ),
  TALLY_ALERTS: onOff("on"),
  TALLY_ALERT_EVALUATE_SECONDS: int(15, 1, 30),
  TALLY_ALERT_REPEAT_MINUTES: int(60, 1, 7 * 24 * 60),
  TALLY_ALERT_DEAD_LETTERS: int(1, 1, 1_000_000),
  TALLY_ALERT_UNAUTHORIZED_COUNT: int(10, 1, 1_000_000),
  TALLY_ALERT_UNAUTHORIZED_WINDOW_MINUTES: int(5, 1, 24 * 60),
  TALLY_ALERT_DRIFT_COUNT: int(1, 1, 1000),
  TALLY_ALERT_QUEUE_STALLED_MINUTES: int(10, 1, 7 * 24 * 60),
  TALLY_ALERT_PLATFORM_ERROR_PERCENT: int(20, 1, 100),
  TALLY_ALERT_PLATFORM_ERROR_MINUTES: int(5, 1, 24 * 60),
  TALLY_ALERT_SAFETY_NET_HOURS: int(24, 1, 30 * 24),
  TALLY_ALERT_WEBHOOK_URL: optionalString.pipe(
    z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  ),
  TALLY_ALERT_WEBHOOK_SECRET: optionalString.pipe(whsecSchema.optional()),
  TALLY_ALERT_SLACK_URL: optionalString.pipe(
    z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  ),
  TALLY_ALERT_SMTP_URL: optionalString.pipe(
    z
      .url({
        protocol: /^smtps?$/,
        error: 'must be an SMTP URL such as "smtp://user:pass@mail.example.com:587" or "smtps://…:465"',
      })
      .optional(),
  ),
  TALLY_ALERT_EMAIL_TO: optionalString.pipe(
    z
      .string()
      .regex(/^[^\s@,]+@[^\s@,]+(\s*,\s*[^\s@,]+@[^\s@,]+)*$/, {
        error: "must be one e-mail address or several separated by commas",
      })
      .optional(),
  ),
  TALLY_ALERT_EMAIL_FROM: z
    .string()
    .regex(/^[^\s@]+@[^\s@]+$/, { error: "must be an e-mail address" })
    .default("tally@localhost"),
  TALLY_LOG_LEVEL: z
    .enum(["debug", "info", "warn", "error"], { error: 'must be "debug", "info", "warn" or "error"' })
    .default("info"),
});

type Env = z.infer<typeof envSchema>;

export type TallyConfig = Env & {
  mode: "demo" | "live";
  /** The platform's base URL; undefined in demo mode until the built-in simulator is started. */
  apiBaseUrl: string | undefined;
  apiKey: string;
  publicUrl: string;
  operatorPassword: string;
  operatorPasswordGenerated: boolean;
  sessionSecret: string;
  /** The variables the environment set (not defaulted), for Settings' "source" column. */
  setVariables?: readonly string[];
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Tally cannot start: bad configuration\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const PRODUCTION_BASE_URL = "https://scraper.geonode.io";

/** Validates an environment; throws ConfigError naming every bad variable and why. */
export function parseConfig(env: Record<string, string | undefined>): TallyConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message} (got ${show(env, i.path)})`),
    );
  }
  const e = parsed.data;
  const mode = e.GEONODE_SCRAPER_API_KEY ? "live" : "demo";
  const problems: string[] = [];
  if (mode === "live" && !e.TALLY_OPERATOR_PASSWORD) {
    problems.push("TALLY_OPERATOR_PASSWORD: required in live mode (GEONODE_SCRAPER_API_KEY is set)");
  }
  if (e.TALLY_POLL_MAX_MS < e.TALLY_POLL_INITIAL_MS) {
    problems.push("TALLY_POLL_MAX_MS: must not be smaller than TALLY_POLL_INITIAL_MS");
  }
  if (e.TALLY_FORWARD_RETRY_MAX_MS < e.TALLY_FORWARD_RETRY_INITIAL_MS) {
    problems.push("TALLY_FORWARD_RETRY_MAX_MS: must not be smaller than TALLY_FORWARD_RETRY_INITIAL_MS");
  }
  // A default destination needs both: a URL without a secret could not be verified by its receiver.
  if (e.TALLY_FORWARD_URL && !e.TALLY_FORWARD_SECRET)
    problems.push("TALLY_FORWARD_SECRET: required when TALLY_FORWARD_URL is set");
  if (e.TALLY_FORWARD_SECRET && !e.TALLY_FORWARD_URL)
    problems.push("TALLY_FORWARD_URL: required when TALLY_FORWARD_SECRET is set");
  // Caught at start-up, not as a 401 on the scheduler's first call.
  if (e.TALLY_SCHEDULER === "external" && !e.TALLY_CRON_SECRET) {
    problems.push(
      "TALLY_CRON_SECRET: required when TALLY_SCHEDULER=external (the cron routes' bearer secret, at least 16 characters)",
    );
  }
  if (e.TALLY_ALERT_SMTP_URL && !e.TALLY_ALERT_EMAIL_TO)
    problems.push("TALLY_ALERT_EMAIL_TO: required when TALLY_ALERT_SMTP_URL is set (who gets the alert e-mails)");
  if (e.TALLY_ALERT_EMAIL_TO && !e.TALLY_ALERT_SMTP_URL)
    problems.push("TALLY_ALERT_SMTP_URL: required when TALLY_ALERT_EMAIL_TO is set (the SMTP server that sends them)");
  if (e.TALLY_ALERT_WEBHOOK_SECRET && !e.TALLY_ALERT_WEBHOOK_URL)
    problems.push("TALLY_ALERT_WEBHOOK_URL: required when TALLY_ALERT_WEBHOOK_SECRET is set");
  if (problems.length) throw new ConfigError(problems);

  const generated = !e.TALLY_OPERATOR_PASSWORD;
  const operatorPassword = e.TALLY_OPERATOR_PASSWORD ?? randomBytes(9).toString("base64url");
  return {
    ...e,
    mode,
    apiBaseUrl: e.SCRAPER_API_BASE_URL ?? (mode === "live" ? PRODUCTION_BASE_URL : undefined),
    apiKey: e.GEONODE_SCRAPER_API_KEY ?? "demo-key",
    publicUrl: e.TALLY_PUBLIC_URL ?? `http://127.0.0.1:${e.PORT}`,
    operatorPassword,
    operatorPasswordGenerated: generated,
    // Without an explicit secret, sessions are keyed by a fresh random value per process.
    sessionSecret: e.TALLY_SESSION_SECRET ?? randomBytes(32).toString("base64url"),
    setVariables: Object.keys(envSchema.shape).filter((name) => env[name] !== undefined),
  };
}

// Secrets never appear in error messages; other values are shown, shortened.
function show(env: Record<string, string | undefined>, path: PropertyKey[]): string {
  const name = String(path[0]);
  const value = env[name];
  if (value === undefined) return "nothing";
  if (SECRET_VARIABLES.has(name)) return "a hidden value";
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
}

const holder = globalThis as unknown as { __tallyConfig?: TallyConfig };

/** The process's configuration, validated once (modules load more than once under Next). */
export function getConfig(): TallyConfig {
  holder.__tallyConfig ??= parseConfig(process.env);
  return holder.__tallyConfig;
}

/** Validated configuration, or exit with the list of bad variables (no stack trace). */
export function configOrExit(): TallyConfig {
  try {
    return getConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/** Demo mode starts the simulator on a port it picks; the client must then follow it. */
export function setApiBaseUrl(url: string): void {
  getConfig().apiBaseUrl = url;
}

/** Tests replace the configuration wholesale. */
export function setConfigForTests(config: TallyConfig | undefined): void {
  holder.__tallyConfig = config;
}

/** The variables that hold secrets: masked wherever configuration is shown. */
export const SECRET_VARIABLES = new Set([
  "GEONODE_SCRAPER_API_KEY",
  "GEONODE_WEBHOOK_SECRET",
  "TALLY_OPERATOR_PASSWORD",
  "TALLY_API_TOKEN",
  "TALLY_SESSION_SECRET",
  "TALLY_FORWARD_SECRET",
  "TALLY_CRON_SECRET",
  "TALLY_METRICS_TOKEN",
  "TALLY_ALERT_WEBHOOK_SECRET",
  // URLs that carry credentials: a Slack webhook URL is itself the secret; an SMTP URL holds a password.
  "TALLY_ALERT_SLACK_URL",
  "TALLY_ALERT_SMTP_URL",
]);

export type ConfigSource = "set" | "default" | "derived" | "unset";

/**
 * How much of a secret a reader may see: `last4` (operators and admins: "••••abcd", enough to tell
 * which secret is in effect) or `hidden` (viewers: whether it is set, nothing of its value).
 */
export type SecretView = "last4" | "hidden";

/**
 * Names of settings safe to show to operators, with secrets masked.
 * Every variable with the value in effect and where it came from: `set` in the environment, the
 * schema's `default`, `derived` from other settings at start-up (the public URL from the port, the
 * platform's URL from the mode or the simulator, a generated password or session key), or `unset`.
 * URL-shaped values never show user info, a password or a query value (see redactUrlSecrets).
 */
export function describeConfig(
  config: TallyConfig,
  secrets: SecretView = "hidden",
): Array<{ name: string; value: string; source: ConfigSource; note?: string }> {
  const set = new Set(config.setVariables ?? []);
  const derived: Record<string, { value: string | undefined; note: string }> = {
    TALLY_PUBLIC_URL: { value: config.publicUrl, note: "from PORT" },
    SCRAPER_API_BASE_URL: {
      value: config.apiBaseUrl,
      note: config.mode === "demo" ? "the built-in simulator (demo mode)" : "the platform's production URL (live mode)",
    },
    TALLY_OPERATOR_PASSWORD: {
      value: config.operatorPassword,
      note: "generated at start (printed once in the server log)",
    },
    TALLY_SESSION_SECRET: { value: config.sessionSecret, note: "random per process (sessions end on restart)" },
  };
  const shown = (name: string, value: string) => {
    if (SECRET_VARIABLES.has(name)) return maskFor(value, secrets);
    return redactUrlSecrets(value);
  };
  return Object.keys(envSchema.shape).map((name) => {
    const raw = (config as unknown as Record<string, unknown>)[name];
    const d = derived[name];
    if (!set.has(name) && d && d.value !== undefined && d.value !== "") {
      return { name, value: shown(name, d.value), source: "derived" as const, note: d.note };
    }
    const value = raw === undefined ? "" : String(raw);
    const source: ConfigSource = set.has(name) ? "set" : value === "" ? "unset" : "default";
    // A viewer is told an unset secret is unset (""), as the other unset variables are.
    const v = SECRET_VARIABLES.has(name) && secrets === "hidden" && value === "" ? "" : shown(name, value);
    return { name, value: v, source };
  });
}

export function mask(secret: string | null | undefined): string {
  if (!secret) return "(not set)";
  return secret.length <= 8 ? "••••" : `••••${secret.slice(-4)}`;
}

/** A secret as `view` allows: its last 4 characters, or only whether it is set. */
export function maskFor(secret: string | null | undefined, view: SecretView): string {
  if (view === "last4") return mask(secret);
  return secret ? "(hidden)" : "(not set)";
}

// Query parameters whose values say how to connect, never who: shown as they are.
const HARMLESS_QUERY = new Set(["sslmode", "schema", "connection_limit", "connect_timeout", "pool_timeout"]);

/**
 * A URL fit for any screen: user info (name and password) becomes "••••@", every query value but a few
 * harmless connection options becomes "••••", and the fragment is dropped. Values that are not
 * `scheme://` URLs (a SQLite `file:` path, a number) are returned as they are.
 */
export function redactUrlSecrets(value: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    // Unparseable: keep the scheme, hide everything else rather than guess where a secret ends.
    const scheme = value.slice(0, value.indexOf("://"));
    return `${scheme}://${value.includes("@") ? "••••@" : ""}…`;
  }
  const userInfo = u.username || u.password ? "••••@" : "";
  const params = [...u.searchParams.keys()].map((k) =>
    HARMLESS_QUERY.has(k.toLowerCase())
      ? `${encodeURIComponent(k)}=${encodeURIComponent(u.searchParams.get(k) ?? "")}`
      : `${encodeURIComponent(k)}=••••`,
  );
  const path = u.pathname === "/" && !value.slice(value.indexOf("://") + 3).includes("/") ? "" : u.pathname;
  return `${u.protocol}//${userInfo}${u.host}${path}${params.length ? `?${[...new Set(params)].join("&")}` : ""}`;
}

export type Store = "sqlite" | "postgres";

/** Which store a DATABASE_URL names: `postgresql://…` (or `postgres://…`) is PostgreSQL, `file:…` SQLite. */
export function storeOf(url: string): Store {
  return /^postgres(ql)?:\/\//.test(url) ? "postgres" : "sqlite";
}

/** A database URL fit for logs: a password in it is replaced by "***". */
export function redactUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@]+:)[^@]*@/, "$1***@");
}
