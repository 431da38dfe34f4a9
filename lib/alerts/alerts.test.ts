// Alert rules on a real database (SQLite, and PostgreSQL through vitest.postgres.config.mts), sent to
// real local sinks: an HTTP sink for the signed webhook and for Slack, an SMTP server for e-mail.
// The clock is passed in, so the repeat interval is checked without waiting.
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseConfig, setConfigForTests } from "@/lib/config";
import { db } from "@/lib/db";
import { startSink, type Sink } from "@/lib/outbound/test-sink";
import { verifyDelivery } from "@/lib/signing/signature";
import { createTestDb, type TestDb } from "@/test/db";
import { deliverAlertNotifications, MAX_ATTEMPTS } from "./deliver";
import { evaluateAlerts } from "./evaluate";
import { acknowledgeAlert, silenceAlert, unsilenceAlert } from "./silence";
import { sendTestAlert } from "./test-alert";
import { alertsView } from "./view";

const SECRET = "whsec_" + Buffer.from("alert-signing-key-0123456789abcd").toString("base64");
let t: TestDb;
let hook: Sink;
let slack: Sink;
let smtp: SMTPServer;
const mails: Array<{ from: string; to: string[]; raw: string }> = [];

function configure(extra: Record<string, string> = {}) {
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  setConfigForTests(
    parseConfig({
      NODE_ENV: "test",
      DATABASE_URL: t.url,
      TALLY_OPERATOR_PASSWORD: "correct horse battery",
      TALLY_PUBLIC_URL: "https://tally.example",
      TALLY_ALERT_WEBHOOK_URL: `${hook.url}/alerts`,
      TALLY_ALERT_WEBHOOK_SECRET: SECRET,
      TALLY_ALERT_SLACK_URL: `${slack.url}/services/T000/B000/XXXX`,
      TALLY_ALERT_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      TALLY_ALERT_EMAIL_TO: "oncall@example.com",
      TALLY_ALERT_REPEAT_MINUTES: "30",
      ...extra,
    }),
  );
}

beforeAll(async () => {
  t = await createTestDb();
  hook = await startSink();
  slack = await startSink();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    onData(stream, session, cb) {
      let raw = "";
      stream.on("data", (c: Buffer) => (raw += c.toString("utf8")));
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", () => r()));
  configure();
});
afterAll(async () => {
  await hook?.close();
  await slack?.close();
  await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
  await t?.cleanup();
});
beforeEach(async () => {
  for (const table of [
    "alertNotification",
    "alertEvent",
    "alertState",
    "deadLetter",
    "inboundDelivery",
    "secretRotation",
    "subscription",
    "operationRun",
    "auditLog",
  ] as const) {
    await (db()[table] as unknown as { deleteMany(): Promise<unknown> }).deleteMany();
  }
  hook.requests.length = 0;
  slack.requests.length = 0;
  mails.length = 0;
  hook.setAnswer(() => 200);
  configure();
});

const minutes = (base: Date, m: number) => new Date(base.getTime() + m * 60_000);
const hookBodies = () => hook.requests.map((r) => JSON.parse(r.body) as Record<string, unknown>);
const deadLetter = () =>
  db().deadLetter.create({
    data: { jobId: "job-dl-1", kind: "process_job", errorCode: "JOB_FAILED", errorMessage: "the platform said failed" },
  });

describe("dead_letters", () => {
  it("fires once on a new open dead letter: a signed webhook, a Slack message and an e-mail; then resolved when none is open", async () => {
    const t0 = new Date();
    const quiet = await evaluateAlerts({ now: t0 });
    expect(quiet.find((x) => x.rule === "dead_letters")).toMatchObject({ to: "ok", event: null });

    const dl = await deadLetter();
    const fired = await evaluateAlerts({ now: minutes(t0, 1) });
    expect(fired.find((x) => x.rule === "dead_letters")).toMatchObject({ from: "ok", to: "firing", event: "firing" });
    const sent = await deliverAlertNotifications({ now: minutes(t0, 1) });
    expect(sent).toMatchObject({ attempted: 3, sent: 3, failed: 0 });

    // The generic webhook: the contract's body, Standard Webhooks headers that verify with the secret.
    expect(hook.requests).toHaveLength(1);
    const req = hook.requests[0];
    const verified = verifyDelivery(
      { kind: "standard", toleranceSeconds: 300 },
      [SECRET],
      Buffer.from(req.body),
      { get: (n) => req.headers[n.toLowerCase()]?.toString() ?? null },
      Number(req.headers["webhook-timestamp"]),
    );
    expect(verified).toEqual({ ok: true, secretIndex: 0 });
    expect(
      verifyDelivery(
        { kind: "standard", toleranceSeconds: 300 },
        ["whsec_" + Buffer.from("another-key").toString("base64")],
        Buffer.from(req.body),
        { get: (n) => req.headers[n.toLowerCase()]?.toString() ?? null },
        Number(req.headers["webhook-timestamp"]),
      ).ok,
    ).toBe(false);
    const body = JSON.parse(req.body) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["details", "rule", "startedAt", "state", "summary", "url"]);
    expect(body).toMatchObject({
      rule: "dead_letters",
      state: "firing",
      url: "https://tally.example/dead-letters",
      startedAt: minutes(t0, 1).toISOString(),
    });
    expect(body.summary).toMatch(/1 open dead letter .*job-dl-1/);
    expect(body.details).toMatchObject({
      open: 1,
      newest: [expect.objectContaining({ jobId: "job-dl-1", errorCode: "JOB_FAILED" })],
    });

    // Slack: an incoming-webhook body, at the configured URL.
    expect(slack.requests).toHaveLength(1);
    const s = JSON.parse(slack.requests[0].body) as { text: string; blocks: Array<Record<string, unknown>> };
    expect(s.text).toMatch(/^:rotating_light: \[FIRING\] dead_letters: 1 open dead letter/);
    expect(s.blocks[0]).toMatchObject({ type: "section", text: { type: "mrkdwn" } });
    expect(JSON.stringify(s.blocks[1])).toContain("<https://tally.example/dead-letters|Open in Tally>");

    // E-mail through the SMTP server.
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toEqual(["oncall@example.com"]);
    expect(mails[0].raw).toMatch(/Subject: \[Tally FIRING\] dead_letters: 1 open dead letter/);
    expect(mails[0].raw).toContain("https://tally.example/dead-letters");

    // Still open a minute later: nothing new is sent.
    await evaluateAlerts({ now: minutes(t0, 2) });
    expect((await deliverAlertNotifications({ now: minutes(t0, 2) })).attempted).toBe(0);

    // Discarded: one "resolved", carrying when the firing started.
    await db().deadLetter.update({ where: { id: dl.id }, data: { state: "discarded" } });
    const resolved = await evaluateAlerts({ now: minutes(t0, 3) });
    expect(resolved.find((x) => x.rule === "dead_letters")).toMatchObject({
      from: "firing",
      to: "ok",
      event: "resolved",
    });
    await deliverAlertNotifications({ now: minutes(t0, 3) });
    expect(hookBodies().map((b) => b.state)).toEqual(["firing", "resolved"]);
    expect(hookBodies()[1]).toMatchObject({ rule: "dead_letters", startedAt: minutes(t0, 1).toISOString() });
    expect(hook.requests[1].headers["webhook-id"]).not.toBe(hook.requests[0].headers["webhook-id"]);
    expect(JSON.parse(slack.requests[1].body).text).toMatch(/\[RESOLVED\] dead_letters/);
    expect(mails[1].raw).toMatch(/Subject: \[Tally RESOLVED\] dead_letters/);

    const view = await alertsView();
    expect(view.rules.find((r) => r.rule === "dead_letters")).toMatchObject({
      state: "ok",
      thresholds: [{ setting: "TALLY_ALERT_DEAD_LETTERS", value: "1 open or more" }],
    });
    expect(view.history.map((e) => [e.rule, e.state])).toEqual([
      ["dead_letters", "resolved"],
      ["dead_letters", "firing"],
    ]);
    expect(view.history[1].notifications.map((n) => [n.channel, n.status])).toEqual([
      ["webhook", "sent"],
      ["slack", "sent"],
      ["email", "sent"],
    ]);
  });

  it("repeats at most every TALLY_ALERT_REPEAT_MINUTES while the condition holds", async () => {
    const t0 = new Date();
    await deadLetter();
    const events = async (at: Date) =>
      (await evaluateAlerts({ now: at })).find((x) => x.rule === "dead_letters")?.event ?? null;
    expect(await events(t0)).toBe("firing");
    expect(await events(minutes(t0, 1))).toBe(null);
    expect(await events(minutes(t0, 29.9))).toBe(null);
    expect(await events(minutes(t0, 30))).toBe("repeat");
    expect(await events(minutes(t0, 45))).toBe(null);
    expect(await events(minutes(t0, 59))).toBe(null);
    expect(await events(minutes(t0, 60))).toBe("repeat");
    const rows = await db().alertEvent.findMany({ where: { rule: "dead_letters" }, orderBy: { id: "asc" } });
    expect(rows.map((r) => r.kind)).toEqual(["alert", "repeat", "repeat"]);
    // A repeat is still the same firing: it says when it started.
    expect(rows.every((r) => r.startedAt.getTime() === t0.getTime())).toBe(true);
  });
});

describe("acknowledge and silence", () => {
  const dlEvent = async (at: Date) =>
    (await evaluateAlerts({ now: at })).find((x) => x.rule === "dead_letters")?.event ?? null;

  it("an acknowledged firing sends no repeat, still sends its resolved, and the next firing alerts again", async () => {
    const t0 = new Date();
    await expect(acknowledgeAlert("dead_letters", "ops@example.com", t0)).rejects.toThrow(/not firing/);
    const dl = await deadLetter();
    expect(await dlEvent(t0)).toBe("firing");
    await acknowledgeAlert("dead_letters", "ops@example.com", minutes(t0, 1));
    expect((await alertsView()).rules.find((r) => r.rule === "dead_letters")).toMatchObject({
      state: "firing",
      acknowledgedBy: "ops@example.com",
      acknowledgedAt: minutes(t0, 1).toISOString(),
    });
    expect(await dlEvent(minutes(t0, 31))).toBe(null);
    expect(await dlEvent(minutes(t0, 90))).toBe(null);
    await db().deadLetter.update({ where: { id: dl.id }, data: { state: "discarded" } });
    expect(await dlEvent(minutes(t0, 91))).toBe("resolved");
    await deliverAlertNotifications({ now: minutes(t0, 91) });
    expect(hookBodies().map((b) => b.state)).toEqual(["firing", "resolved"]);
    // Resolving ended the acknowledgement: a new dead letter is news again.
    expect((await alertsView()).rules.find((r) => r.rule === "dead_letters")?.acknowledgedAt).toBeNull();
    await deadLetter();
    expect(await dlEvent(minutes(t0, 92))).toBe("firing");
    expect(await dlEvent(minutes(t0, 122))).toBe("repeat");
    const audit = await db().auditLog.findMany({ where: { action: "alerts.acknowledge" } });
    expect(audit.map((a) => [a.actor, a.target, a.ok])).toEqual([
      ["ops@example.com", "dead_letters", false],
      ["ops@example.com", "dead_letters", true],
    ]);
  });

  it("a silence records firings and resolves with no notification; a rule still firing when it ends is sent at once", async () => {
    const t0 = new Date();
    await silenceAlert("dead_letters", 60, "planned maintenance", "ops@example.com", t0);
    const dl = await deadLetter();
    expect(await dlEvent(minutes(t0, 1))).toBe("firing");
    expect(await dlEvent(minutes(t0, 40))).toBe(null);
    expect((await deliverAlertNotifications({ now: minutes(t0, 40) })).attempted).toBe(0);
    const view = await alertsView();
    expect(view.rules.find((r) => r.rule === "dead_letters")).toMatchObject({
      state: "firing",
      silencedUntil: minutes(t0, 60).toISOString(),
      silencedBy: "ops@example.com",
      silenceNote: "planned maintenance",
    });
    expect(view.history[0]).toMatchObject({ rule: "dead_letters", state: "firing", suppressed: "silenced" });
    expect(view.history[0].notifications).toEqual([]);
    // The silence is over and the dead letter is still open: the channels hear of it now.
    expect(await dlEvent(minutes(t0, 61))).toBe("repeat");
    await deliverAlertNotifications({ now: minutes(t0, 61) });
    expect(hookBodies().map((b) => [b.rule, b.state])).toEqual([["dead_letters", "firing"]]);
    expect((await alertsView()).rules.find((r) => r.rule === "dead_letters")?.silencedUntil).toBeNull();

    // Silenced again, then resolved: recorded, not sent; lifting the silence sends nothing old.
    await silenceAlert("dead_letters", 30, null, "ops@example.com", minutes(t0, 62));
    await db().deadLetter.update({ where: { id: dl.id }, data: { state: "discarded" } });
    expect(await dlEvent(minutes(t0, 63))).toBe("resolved");
    await unsilenceAlert("dead_letters", "ops@example.com");
    expect(await dlEvent(minutes(t0, 64))).toBe(null);
    await deliverAlertNotifications({ now: minutes(t0, 64) });
    expect(hook.requests).toHaveLength(1);
    expect((await alertsView()).history[0]).toMatchObject({ state: "resolved", suppressed: "silenced" });
  });

  it("names an unknown rule as not found", async () => {
    await expect(silenceAlert("no_such_rule", 60, null, "ops@example.com")).rejects.toThrow(/No alert rule/);
    await expect(acknowledgeAlert("no_such_rule", "ops@example.com")).rejects.toThrow(/No alert rule/);
    expect(await db().alertState.count()).toBe(0);
  });
});

describe("unauthorized_spike", () => {
  const fail401 = (subscriptionId: string | null, at: Date, n: number) =>
    db().inboundDelivery.createMany({
      data: Array.from({ length: n }, () => ({
        subscriptionId,
        status: 401,
        reason: "signature_mismatch",
        latencyMs: 1,
        bodyBytes: 10,
        receivedAt: at,
      })),
    });
  const spike = async (now: Date) => (await evaluateAlerts({ now })).find((x) => x.rule === "unauthorized_spike")!;

  it("fires at 10 401s within 5 minutes for one subscription, not at 9, and says whether a rotation preceded it", async () => {
    const now = new Date();
    await db().subscription.create({ data: { id: "sub-a", eventType: "extract_completed", url: "http://x" } });
    await db().subscription.create({ data: { id: "sub-b", eventType: "batch_completed", url: "http://x" } });
    await fail401("sub-a", minutes(now, -2), 9);
    await fail401("sub-b", minutes(now, -2), 5);
    await fail401("sub-a", minutes(now, -6), 20); // outside the window
    expect(await spike(now)).toMatchObject({ to: "ok", event: null });

    await db().secretRotation.create({
      data: { subscriptionId: "sub-a", source: "rotated", actor: "test", at: minutes(now, -10) },
    });
    await fail401("sub-a", minutes(now, -1), 1);
    expect(await spike(now)).toMatchObject({ to: "firing", event: "firing" });
    const state = await db().alertState.findUniqueOrThrow({ where: { rule: "unauthorized_spike" } });
    expect(state.summary).toMatch(
      /^10 deliveries answered 401 in 5 min for the extract_completed subscription \(sub-a\) \(its secret was rotated 8 minutes before the first one\)$/,
    );
    expect(JSON.parse(state.details ?? "{}")).toMatchObject({
      spikes: [{ subscriptionId: "sub-a", count: 10, rotationPreceded: true }],
    });
  });

  it("counts the unkeyed route on its own, and resolves once the window has moved past the 401s", async () => {
    const now = new Date();
    await fail401(null, minutes(now, -1), 10);
    expect(await spike(now)).toMatchObject({ to: "firing", event: "firing" });
    const details = JSON.parse(
      (await db().alertState.findUniqueOrThrow({ where: { rule: "unauthorized_spike" } })).details ?? "{}",
    );
    expect(details.spikes).toEqual([
      expect.objectContaining({
        subscriptionId: null,
        route: "/webhooks/geonode (unkeyed)",
        count: 10,
        rotationPreceded: false,
      }),
    ]);
    expect(await spike(minutes(now, 5))).toMatchObject({ from: "firing", to: "ok", event: "resolved" });
  });
});

describe("channels", () => {
  it("retries a failing channel with backoff without holding up the others, shows it failing, and gives up after the last attempt", async () => {
    hook.setAnswer(() => 503);
    const t0 = new Date();
    await deadLetter();
    await evaluateAlerts({ now: t0 });
    expect(await deliverAlertNotifications({ now: t0 })).toMatchObject({ attempted: 3, sent: 2, retrying: 1 });
    const n = await db().alertNotification.findFirstOrThrow({ where: { channel: "webhook" } });
    expect(n).toMatchObject({ status: "retrying", attempts: 1, lastStatusCode: 503 });
    expect(n.nextAttemptAt!.getTime() - t0.getTime()).toBe(10_000);
    // Not due yet: nothing is sent.
    expect((await deliverAlertNotifications({ now: new Date(t0.getTime() + 9_000) })).attempted).toBe(0);
    const view = await alertsView();
    expect(view.channels.find((c) => c.channel === "webhook")).toMatchObject({
      health: "failing",
      lastError: expect.stringMatching(/HTTP 503/),
      signed: true,
    });
    expect(view.channels.find((c) => c.channel === "slack")).toMatchObject({ health: "ok" });
    expect(JSON.stringify(view.channels)).not.toContain("/services/T000/B000/XXXX");

    let at = t0.getTime();
    for (let i = 2; i <= MAX_ATTEMPTS; i++) {
      at += 16 * 60_000;
      await deliverAlertNotifications({ now: new Date(at) });
    }
    expect(await db().alertNotification.findFirstOrThrow({ where: { channel: "webhook" } })).toMatchObject({
      status: "failed",
      attempts: MAX_ATTEMPTS,
      nextAttemptAt: null,
    });
    expect(hook.requests).toHaveLength(MAX_ATTEMPTS);
    // Every attempt carried the same webhook-id: the receiver can deduplicate.
    expect(new Set(hook.requests.map((r) => r.headers["webhook-id"])).size).toBe(1);
  });

  it("sends a test alert to one channel at once and records its result", async () => {
    const r = await sendTestAlert("webhook", "operator");
    expect(r).toEqual({ channel: "webhook", ok: true, statusCode: 200, error: null });
    expect(hookBodies()[0]).toMatchObject({
      rule: "test",
      state: "firing",
      summary: expect.stringMatching(/webhook channel works/),
    });
    expect(slack.requests).toHaveLength(0);
    hook.setAnswer(() => 500);
    expect(await sendTestAlert("webhook", "operator")).toMatchObject({ ok: false, statusCode: 500 });
    const view = await alertsView();
    expect(view.history[0]).toMatchObject({
      rule: "test",
      kind: "test",
      notifications: [{ channel: "webhook", status: "failed" }],
    });
    expect(view.channels.find((c) => c.channel === "webhook")?.health).toBe("failing");
    // Both left an audit row: who tested which channel, and whether it worked.
    const audit = await db().auditLog.findMany({ where: { action: "alerts.test" }, orderBy: { id: "asc" } });
    expect(audit.map((a) => [a.actor, a.target, a.ok])).toEqual([
      ["operator", "webhook", true],
      ["operator", "webhook", false],
    ]);
  });

  it("refuses a test to a channel that is not configured", async () => {
    configure({ TALLY_ALERT_SLACK_URL: "" });
    await expect(sendTestAlert("slack", "operator")).rejects.toThrow(/not configured/);
    expect(await db().alertEvent.count()).toBe(0);
  });
});
