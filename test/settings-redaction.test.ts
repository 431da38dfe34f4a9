// Issue 27, finding 1 (high): the Settings read model showed DATABASE_URL with its password to every role,
// and the alert webhook and forward URLs with their query tokens. Every URL-shaped setting now shows no
// password, user info or query secret to anyone; a viewer sees no secret-bearing value at all (not even
// the last 4 characters of a password or token); admins and operators keep the last-4 masks.
import { afterEach, describe, expect, it } from "vitest";
import { alertsView } from "@/lib/alerts/view";
import { redactUrlSecrets } from "@/lib/config";
import { db } from "@/lib/db";
import { settingsView } from "@/lib/settings/view";
import { createTestDb, type TestDb } from "./db";

const DB_PASSWORD = "pg-Pa55word-Zq81";
const ALERT_TOKEN = "alertQueryToken77Hx";
const FORWARD_TOKEN = "forwardQueryTokenK2m";
const SMTP_USER = "mailer-account-x9";
const SMTP_PASSWORD = "smtpPa55-Wq4e";
const SLACK_PATH = "T000/B000/slackSecretPart99";
const API_TOKEN = "test-token-0123456789abcdef";
const SESSION = "test-session-secret-0123456789abcdef0123";
const PASSWORD = "correct horse battery";
const CRON = "cron-secret-0123456789-Lk3p";
const METRICS = "metrics-token-0123456789-Fv8d";
const SUB_SECRET = "whsec_subscription_secret_Q7xZ";
const FORWARD_SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;

let t: TestDb | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

async function setUp() {
  t = await createTestDb({
    TALLY_ALERT_WEBHOOK_URL: `https://alerts.example.com/hook?token=${ALERT_TOKEN}&team=ops`,
    TALLY_ALERT_SLACK_URL: `https://hooks.slack.com/services/${SLACK_PATH}`,
    TALLY_ALERT_SMTP_URL: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@mail.example.com:587`,
    TALLY_ALERT_EMAIL_TO: "ops@example.com",
    TALLY_FORWARD_URL: `https://sink.example.com/in?access_token=${FORWARD_TOKEN}`,
    TALLY_FORWARD_SECRET: FORWARD_SECRET,
    TALLY_CRON_SECRET: CRON,
    TALLY_METRICS_TOKEN: METRICS,
    SCRAPER_API_BASE_URL: `https://apiuser:${DB_PASSWORD}@scraper.example.com`,
  });
  // The store's own URL cannot carry a password in a test rig; the read model is given one that does.
  await db().subscription.create({
    data: { id: "sub-1", eventType: "extract_completed", url: "http://x/1", secret: SUB_SECRET },
  });
  return {
    ...t.config,
    DATABASE_URL: `postgresql://tally:${DB_PASSWORD}@db.example.com:5432/tally?sslmode=require&password=${DB_PASSWORD}`,
    setVariables: [...(t.config.setVariables ?? []), "DATABASE_URL"],
  };
}

const URL_SECRETS = [DB_PASSWORD, ALERT_TOKEN, FORWARD_TOKEN, SMTP_USER, SMTP_PASSWORD, "slackSecretPart99", "apiuser"];
const WHOLE_SECRETS = [API_TOKEN, SESSION, PASSWORD, CRON, METRICS, SUB_SECRET, FORWARD_SECRET];

function expectNone(serialized: string, secrets: string[]) {
  for (const s of secrets) expect(serialized, s).not.toContain(s);
}

describe("the settings read model (issue 27, finding 1)", () => {
  it("shows an admin no URL password, user info or query token, and secrets only as last-4 masks", async () => {
    const config = await setUp();
    const view = await settingsView(config, "admin");
    const serialized = JSON.stringify(view);
    expectNone(serialized, [...URL_SECRETS, ...WHOLE_SECRETS]);
    const setting = (name: string) => view.settings.find((s) => s.name === name)?.value;
    expect(setting("DATABASE_URL")).toBe("postgresql://••••@db.example.com:5432/tally?sslmode=require&password=••••");
    expect(setting("TALLY_ALERT_WEBHOOK_URL")).toBe("https://alerts.example.com/hook?token=••••&team=••••");
    expect(setting("TALLY_FORWARD_URL")).toBe("https://sink.example.com/in?access_token=••••");
    expect(setting("SCRAPER_API_BASE_URL")).toBe("https://••••@scraper.example.com");
    expect(view.apiBaseUrl).toBe("https://••••@scraper.example.com");
    expect(setting("TALLY_API_TOKEN")).toBe("••••cdef");
    expect(view.subscriptions[0].secret).toBe("••••Q7xZ");
    const smtp = view.alertChannels.find((c) => c.channel === "email")?.target;
    expect(smtp).toBe("smtp://mail.example.com:587 → ops@example.com");
    expect(view.alertChannels.find((c) => c.channel === "webhook")?.target).toBe(
      "https://alerts.example.com/hook?token=••••&team=••••",
    );
  });

  it("shows a viewer no secret-bearing value at all, not even a last 4", async () => {
    const config = await setUp();
    const view = await settingsView(config, "viewer");
    const serialized = JSON.stringify(view);
    expectNone(serialized, [...URL_SECRETS, ...WHOLE_SECRETS]);
    for (const s of [API_TOKEN, SESSION, PASSWORD, CRON, METRICS, SUB_SECRET, FORWARD_SECRET]) {
      expect(serialized, `last 4 of ${s}`).not.toContain(`••••${s.slice(-4)}`);
    }
    const setting = (name: string) => view.settings.find((s) => s.name === name)?.value;
    for (const name of [
      "TALLY_OPERATOR_PASSWORD",
      "TALLY_API_TOKEN",
      "TALLY_SESSION_SECRET",
      "TALLY_CRON_SECRET",
      "TALLY_METRICS_TOKEN",
      "TALLY_FORWARD_SECRET",
      "TALLY_ALERT_SLACK_URL",
    ])
      expect(setting(name), name).toBe("(hidden)");
    expect(setting("GEONODE_WEBHOOK_SECRET")).toBe("");
    expect(view.subscriptions[0].secret).toBe("(hidden)");
    expect(view.subscriptions[0].previousSecret).toBe("(not set)");
    expect(view.alertChannels.find((c) => c.channel === "slack")?.target).toBe("https://hooks.slack.com/… (hidden)");
    // the Alerts page (GET /api/alerts, viewer and up) carries the same channel targets
    expectNone(JSON.stringify(await alertsView("viewer")), [...URL_SECRETS, ...WHOLE_SECRETS]);
  });
});

describe("redactUrlSecrets", () => {
  it.each([
    ["postgres://u:p@h/db", "postgres://••••@h/db"],
    ["postgresql://user@h:5432/db", "postgresql://••••@h:5432/db"],
    ["https://h/p?a=1#frag", "https://h/p?a=••••"],
    ["https://h/p?sslmode=require", "https://h/p?sslmode=require"],
    ["http://127.0.0.1:3000", "http://127.0.0.1:3000"],
    ["file:./data/tally.db", "file:./data/tally.db"],
    ["not a url", "not a url"],
    ["mysql://root:secret@[::1]:3306/x", "mysql://••••@[::1]:3306/x"],
    ["weird://a:b@c d", "weird://••••@…"],
  ])("%s → %s", (input, out) => {
    expect(redactUrlSecrets(input)).toBe(out);
  });
});
