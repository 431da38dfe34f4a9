import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ConfigError, describeConfig, envSchema, parseConfig } from "@/lib/config";
import { tracesProtocol } from "@/lib/tracing";

function problems(env: Record<string, string>): string[] {
  try {
    parseConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error("expected a ConfigError");
}

describe("configuration", () => {
  it("defaults to demo mode with a generated password and the documented defaults", () => {
    const c = parseConfig({});
    expect(c.mode).toBe("demo");
    expect(c.PORT).toBe(3000);
    expect(c.DATABASE_URL).toBe("file:./data/tally.db");
    expect(c.operatorPasswordGenerated).toBe(true);
    expect(c.operatorPassword.length).toBeGreaterThanOrEqual(12);
    expect(c.apiBaseUrl).toBeUndefined();
    expect(c.publicUrl).toBe("http://127.0.0.1:3000");
    expect(c.TALLY_RECONCILE_INTERVAL_MINUTES).toBe(10);
    expect(c.TALLY_RECONCILE_FULL_SCAN_HOURS).toBe(24);
    expect(c.TALLY_WEBHOOK_MAX_BODY_BYTES).toBe(1_048_576);
    expect(c.TALLY_WORKER_CONCURRENCY).toBe(4);
  });

  it("works the worker's concurrency out from the rate budget unless it is set", () => {
    // A tenth of TALLY_API_RPS, 4 to 32: items waiting for the budget's slots hold them, so fresh work
    // waits behind about half a second of them at any budget.
    const at = (env: Record<string, string>) => parseConfig(env).TALLY_WORKER_CONCURRENCY;
    expect(at({ TALLY_API_RPS: "10" })).toBe(4);
    expect(at({ TALLY_API_RPS: "50" })).toBe(5);
    expect(at({ TALLY_API_RPS: "160" })).toBe(16);
    expect(at({ TALLY_API_RPS: "1000" })).toBe(32);
    expect(at({ TALLY_API_RPS: "1000", TALLY_WORKER_CONCURRENCY: "2" })).toBe(2);
    expect(problems({ TALLY_WORKER_CONCURRENCY: "0" })).toEqual([
      'TALLY_WORKER_CONCURRENCY: must be at least 1 (got "0")',
    ]);
    expect(problems({ TALLY_WORKER_CONCURRENCY: "65" })).toEqual([
      'TALLY_WORKER_CONCURRENCY: must be at most 64 (got "65")',
    ]);
    const row = (env: Record<string, string>) =>
      describeConfig(parseConfig(env)).find((e) => e.name === "TALLY_WORKER_CONCURRENCY");
    expect(row({ TALLY_API_RPS: "1000" })).toMatchObject({ value: "32", source: "derived" });
    expect(row({ TALLY_WORKER_CONCURRENCY: "7" })).toMatchObject({ value: "7", source: "set" });
  });

  it("goes live with an API key and the production base URL", () => {
    const c = parseConfig({ GEONODE_SCRAPER_API_KEY: "k", TALLY_OPERATOR_PASSWORD: "long enough" });
    expect(c.mode).toBe("live");
    expect(c.apiBaseUrl).toBe("https://scraper.geonode.io");
    expect(c.operatorPasswordGenerated).toBe(false);
  });

  it("names every bad variable and why, without echoing secrets", () => {
    const p = problems({
      PORT: "eighty",
      DATABASE_URL: "mysql://x",
      TALLY_DELIVERY_MODE: "carrier-pigeon",
      TALLY_API_TOKEN: "short-secret",
      TALLY_PUBLIC_URL: "not a url",
      TALLY_RECONCILE_FULL_SCAN_HOURS: "daily",
    });
    const text = p.join("\n");
    expect(text).toMatch(/PORT: must be a number/);
    expect(text).toMatch(/DATABASE_URL: must be a SQLite URL .* or a PostgreSQL URL/);
    expect(text).toMatch(/TALLY_DELIVERY_MODE: must be "webhooks", "polling" or "both"/);
    expect(text).toMatch(/TALLY_API_TOKEN: must be at least 16 characters \(got a hidden value\)/);
    expect(text).toMatch(/TALLY_PUBLIC_URL: must be an http\(s\) URL/);
    expect(text).toMatch(/TALLY_RECONCILE_FULL_SCAN_HOURS: must be a number of hours \(got "daily"\)/);
    expect(problems({ TALLY_RECONCILE_FULL_SCAN_HOURS: "1000" }).join("\n")).toMatch(
      /TALLY_RECONCILE_FULL_SCAN_HOURS: must be at most 720 \(30 days\)/,
    );
    expect(text).not.toContain("short-secret");
  });

  it("requires an operator password in live mode", () => {
    expect(problems({ GEONODE_SCRAPER_API_KEY: "k" }).join()).toMatch(/TALLY_OPERATOR_PASSWORD: required in live mode/);
  });

  it("TALLY_SCHEDULER=external needs TALLY_CRON_SECRET, at least 16 characters, never echoed", () => {
    expect(problems({ TALLY_SCHEDULER: "external" }).join()).toMatch(
      /TALLY_CRON_SECRET: required when TALLY_SCHEDULER=external/,
    );
    const short = problems({ TALLY_SCHEDULER: "external", TALLY_CRON_SECRET: "short-cron" }).join();
    expect(short).toMatch(/TALLY_CRON_SECRET: must be at least 16 characters/);
    expect(short).not.toContain("short-cron");
    expect(problems({ TALLY_SCHEDULER: "sometimes" }).join()).toMatch(
      /TALLY_SCHEDULER: must be "on", "off" or "external"/,
    );
    const ok = parseConfig({ TALLY_SCHEDULER: "external", TALLY_CRON_SECRET: "cron-secret-0123456789" });
    expect(ok.TALLY_SCHEDULER).toBe("external");
    expect(describeConfig(ok, "last4").find((v) => v.name === "TALLY_CRON_SECRET")?.value).toBe("••••6789");
    expect(parseConfig({}).TALLY_SCHEDULER).toBe("on");
  });

  it("validates the metrics and alert settings, naming what is wrong and never echoing secrets", () => {
    const c = parseConfig({});
    expect([
      c.TALLY_ALERT_REPEAT_MINUTES,
      c.TALLY_ALERT_DEAD_LETTERS,
      c.TALLY_ALERT_UNAUTHORIZED_COUNT,
      c.TALLY_ALERT_UNAUTHORIZED_WINDOW_MINUTES,
    ]).toEqual([60, 1, 10, 5]);
    expect(c.TALLY_ALERT_EVALUATE_SECONDS).toBeLessThanOrEqual(30);
    const text = problems({
      TALLY_METRICS_TOKEN: "short-metrics",
      TALLY_ALERT_EVALUATE_SECONDS: "60",
      TALLY_ALERT_WEBHOOK_URL: "ftp://x",
      TALLY_ALERT_WEBHOOK_SECRET: "plain-secret-value",
      TALLY_ALERT_SMTP_URL: "https://mail.example.com",
      TALLY_ALERT_EMAIL_TO: "not an address",
    }).join("\n");
    expect(text).toMatch(/TALLY_METRICS_TOKEN: must be at least 16 characters \(got a hidden value\)/);
    expect(text).toMatch(/TALLY_ALERT_EVALUATE_SECONDS: must be at most 30/);
    expect(text).toMatch(/TALLY_ALERT_WEBHOOK_URL: must be an http\(s\) URL/);
    expect(text).toMatch(/TALLY_ALERT_WEBHOOK_SECRET: .*whsec_/);
    expect(text).toMatch(/TALLY_ALERT_SMTP_URL: must be an SMTP URL/);
    expect(text).toMatch(/TALLY_ALERT_EMAIL_TO: must be one e-mail address or several/);
    expect(text).not.toContain("short-metrics");
    expect(text).not.toContain("plain-secret-value");
    expect(problems({ TALLY_ALERT_SMTP_URL: "smtp://mail.example.com:587" }).join()).toMatch(
      /TALLY_ALERT_EMAIL_TO: required when TALLY_ALERT_SMTP_URL is set/,
    );
    expect(problems({ TALLY_ALERT_EMAIL_TO: "a@example.com" }).join()).toMatch(
      /TALLY_ALERT_SMTP_URL: required when TALLY_ALERT_EMAIL_TO is set/,
    );
    const ok = parseConfig({
      TALLY_ALERT_SMTP_URL: "smtp://u:hunter2hunter2@mail.example.com:587",
      TALLY_ALERT_EMAIL_TO: "a@example.com, b@example.com",
      TALLY_ALERT_SLACK_URL: "https://hooks.slack.com/services/T0/B0/SECRETPART",
    });
    const shown = JSON.stringify(describeConfig(ok, "last4"));
    expect(shown).not.toContain("hunter2");
    expect(shown).not.toContain("SECRETPART");
  });

  it("OTLP protocols: http/json (the default) and http/protobuf, the traces-specific one winning; gRPC refused", () => {
    const protocol = (env: Record<string, string>) => tracesProtocol(parseConfig(env));
    expect(protocol({})).toBe("http/json");
    expect(protocol({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf" })).toBe("http/protobuf");
    expect(
      protocol({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json" }),
    ).toBe("http/json");
    for (const name of ["OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"])
      expect(problems({ [name]: "grpc" })).toEqual([
        `${name}: must be "http/json" or "http/protobuf" (Tally exports OTLP over HTTP; gRPC is not supported) (got "grpc")`,
      ]);
  });

  it("TALLY_METRICS_PORT: unset means no listener; otherwise a whole port number 1-65535", () => {
    expect(parseConfig({}).TALLY_METRICS_PORT).toBeUndefined();
    expect(parseConfig({ TALLY_METRICS_PORT: "" }).TALLY_METRICS_PORT).toBeUndefined();
    expect(parseConfig({ TALLY_METRICS_PORT: "9464" }).TALLY_METRICS_PORT).toBe(9464);
    expect(problems({ TALLY_METRICS_PORT: "metrics" }).join()).toMatch(
      /TALLY_METRICS_PORT: must be a number \(got "metrics"\)/,
    );
    expect(problems({ TALLY_METRICS_PORT: "0" }).join()).toMatch(/TALLY_METRICS_PORT: must be at least 1/);
    expect(problems({ TALLY_METRICS_PORT: "65536" }).join()).toMatch(/TALLY_METRICS_PORT: must be at most 65535/);
    expect(problems({ TALLY_METRICS_PORT: "94.5" }).join()).toMatch(/TALLY_METRICS_PORT: must be a whole number/);
  });

  it("TALLY_SIM_BODY_BYTES: the demo simulator's page sizes, MIN,MAX bytes, realistic by default", () => {
    expect(parseConfig({}).TALLY_SIM_BODY_BYTES).toEqual([20_000, 200_000]);
    expect(parseConfig({ TALLY_SIM_BODY_BYTES: " 3000, 30000 " }).TALLY_SIM_BODY_BYTES).toEqual([3000, 30_000]);
    expect(problems({ TALLY_SIM_BODY_BYTES: "big" })).toEqual([
      'TALLY_SIM_BODY_BYTES: must be "MIN,MAX": two whole numbers of bytes (got "big")',
    ]);
    for (const bad of ["300,30", "0,16000001", "-1,5", "1.5,3"])
      expect(problems({ TALLY_SIM_BODY_BYTES: bad }).join(), bad).toMatch(/^TALLY_SIM_BODY_BYTES: must be /);
  });

  it("TALLY_PRELOAD_ROUTES: on by default, off for a lighter start, anything else refused with the reason", () => {
    expect(parseConfig({}).TALLY_PRELOAD_ROUTES).toBe("on");
    expect(parseConfig({ TALLY_PRELOAD_ROUTES: "off" }).TALLY_PRELOAD_ROUTES).toBe("off");
    expect(problems({ TALLY_PRELOAD_ROUTES: "no" }).join()).toMatch(/TALLY_PRELOAD_ROUTES: must be "on" or "off"/);
  });

  it("documents every variable in docs/configuration.md, with its default", () => {
    const reference = readFileSync("docs/configuration.md", "utf8");
    const rows = new Map([...reference.matchAll(/^\| `([A-Z0-9_]+)` \| ([^|]*) \|/gm)].map((m) => [m[1], m[2].trim()]));
    const undocumented = Object.keys(envSchema.shape).filter((name) => !rows.has(name));
    expect(undocumented).toEqual([]);
    // A default stated in the reference is the one the schema applies.
    const defaults = parseConfig({}) as unknown as Record<string, unknown>;
    const wrong = [...rows].filter(
      ([name, shown]) => /^`[^`]+`$/.test(shown) && name in defaults && shown !== `\`${String(defaults[name])}\``,
    );
    expect(wrong).toEqual([]);
  });

  it("masks secrets when describing the configuration", () => {
    const c = parseConfig({
      GEONODE_WEBHOOK_SECRET: "whsec_abcdefghijklmnop",
      TALLY_API_TOKEN: "tok-0123456789abcdefXYZW",
    });
    const shown = Object.fromEntries(describeConfig(c, "last4").map((e) => [e.name, e.value]));
    expect(shown.GEONODE_WEBHOOK_SECRET).toBe("••••mnop");
    expect(shown.TALLY_API_TOKEN).toBe("••••XYZW");
    expect(JSON.stringify(shown)).not.toContain("abcdefghijkl");
    expect(shown.PORT).toBe("3000");
    expect(shown.TALLY_PREVIOUS_SECRET_TTL_SECONDS).toBe("300"); // a duration, not a secret
  });

  it("says where each effective value came from: set, default, derived or not set", () => {
    const c = parseConfig({ PORT: "4321", TALLY_DELIVERY_MODE: "both" });
    const row = (name: string) => describeConfig(c, "last4").find((e) => e.name === name);
    expect(row("PORT")).toMatchObject({ value: "4321", source: "set" });
    expect(row("TALLY_DELIVERY_MODE")).toMatchObject({ value: "both", source: "set" });
    expect(row("TALLY_LEASE_SECONDS")).toMatchObject({ value: "60", source: "default" });
    // not "(not set)" while a value is in use: the public URL follows the port, the password is generated
    expect(row("TALLY_PUBLIC_URL")).toMatchObject({ value: "http://127.0.0.1:4321", source: "derived" });
    expect(row("TALLY_OPERATOR_PASSWORD")).toMatchObject({ source: "derived" });
    expect(row("TALLY_OPERATOR_PASSWORD")?.value).toMatch(/^••••/);
    expect(row("TALLY_SESSION_SECRET")?.value).toMatch(/^••••/);
    expect(row("TALLY_API_TOKEN")).toMatchObject({ value: "(not set)" });
    const live = parseConfig({
      GEONODE_SCRAPER_API_KEY: "key-0123456789",
      TALLY_OPERATOR_PASSWORD: "a long password",
      TALLY_PUBLIC_URL: "https://t.example",
    });
    const liveRow = (name: string) => describeConfig(live, "last4").find((e) => e.name === name);
    expect(liveRow("SCRAPER_API_BASE_URL")).toMatchObject({ value: "https://scraper.geonode.io", source: "derived" });
    expect(liveRow("TALLY_PUBLIC_URL")).toMatchObject({ value: "https://t.example", source: "set" });
    expect(liveRow("TALLY_OPERATOR_PASSWORD")).toMatchObject({ source: "set" });
  });
});
