import "server-only";
import nodemailer from "nodemailer";
import { maskFor, redactUrlSecrets, type SecretView, type TallyConfig } from "../config";
import { deadline } from "../http";
import { signDelivery } from "../signing";
import type { AlertMessage, Channel } from "./contracts";

// The three channels: what each one is sent, and one attempt at sending it. Redirects are not
// followed and only a 2xx (or the SMTP server's acceptance) counts as sent.

export type Attempt = { ok: boolean; statusCode: number | null; error: string | null };

const TIMEOUT_MS = 10_000;
const USER_AGENT = "Tally-Alerts/1";

export function configuredChannels(c: TallyConfig): Channel[] {
  const out: Channel[] = [];
  if (c.TALLY_ALERT_WEBHOOK_URL) out.push("webhook");
  if (c.TALLY_ALERT_SLACK_URL) out.push("slack");
  if (c.TALLY_ALERT_SMTP_URL && c.TALLY_ALERT_EMAIL_TO) out.push("email");
  return out;
}

/**
 * Where a channel sends, fit for the browser: Slack's URL is a secret (its last 4 for operators and
 * admins, nothing for viewers), SMTP URLs carry an account and a password (neither is shown), and a
 * webhook URL's query values are tokens (masked).
 */
export function channelTarget(channel: Channel, c: TallyConfig, secrets: SecretView = "hidden"): string {
  if (channel === "webhook")
    return c.TALLY_ALERT_WEBHOOK_URL ? redactUrlSecrets(c.TALLY_ALERT_WEBHOOK_URL) : "(not set)";
  if (channel === "slack")
    return c.TALLY_ALERT_SLACK_URL
      ? `${new URL(c.TALLY_ALERT_SLACK_URL).origin}/… ${maskFor(c.TALLY_ALERT_SLACK_URL, secrets)}`
      : "(not set)";
  if (!c.TALLY_ALERT_SMTP_URL) return "(not set)";
  const u = new URL(c.TALLY_ALERT_SMTP_URL);
  return `${u.protocol}//${u.host} → ${c.TALLY_ALERT_EMAIL_TO}`;
}

const slackEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Slack's incoming-webhook format: `text` (the notification line) plus blocks for the message. */
export function slackBody(m: AlertMessage): { text: string; blocks: unknown[] } {
  const icon = m.state === "firing" ? ":rotating_light:" : ":white_check_mark:";
  const headline = `${icon} [${m.state.toUpperCase()}] ${m.rule}: ${slackEscape(m.summary)}`;
  return {
    text: headline,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `*${headline}*` } },
      {
        type: "context",
        elements: [{ type: "mrkdwn", text: `Started ${m.startedAt} · <${m.url}|Open in Tally>` }],
      },
    ],
  };
}

export function emailMessage(m: AlertMessage): { subject: string; text: string } {
  return {
    subject: `[Tally ${m.state.toUpperCase()}] ${m.rule}: ${m.summary}`.slice(0, 200),
    text: [
      `${m.rule} is ${m.state}.`,
      "",
      m.summary,
      "",
      `Started: ${m.startedAt}`,
      `Dashboard: ${m.url}`,
      "",
      "Details:",
      JSON.stringify(m.details, null, 2),
    ].join("\n"),
  };
}

async function post(url: string, body: string, headers: Record<string, string>, signal: AbortSignal): Promise<Attempt> {
  const limit = deadline(TIMEOUT_MS, signal);
  try {
    const res = await fetch(url, {
      method: "POST",
      redirect: "manual",
      signal: limit.signal,
      headers: { "content-type": "application/json", "user-agent": USER_AGENT, ...headers },
      body,
    });
    const text = await res.text().catch(() => "");
    const ok = res.status >= 200 && res.status < 300;
    return {
      ok,
      statusCode: res.status,
      error: ok ? null : `HTTP ${res.status}${text ? `: ${text.slice(0, 200).replace(/\s+/g, " ")}` : ""}`,
    };
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
    const code =
      cause && typeof cause === "object" && "code" in cause && typeof cause.code === "string" ? cause.code : null;
    return {
      ok: false,
      statusCode: null,
      error: (code ?? (cause instanceof Error ? cause.message : String(cause))).slice(0, 300),
    };
  } finally {
    limit.done();
  }
}

/**
 * One attempt on one channel. `messageId` is the webhook-id: the same for every attempt of one
 * notification, so a receiver that saw it already can drop the repeat.
 */
export async function sendToChannel(
  channel: Channel,
  m: AlertMessage,
  messageId: string,
  c: TallyConfig,
  signal: AbortSignal,
  nowMs = Date.now(),
): Promise<Attempt> {
  if (channel === "webhook") {
    if (!c.TALLY_ALERT_WEBHOOK_URL) return { ok: false, statusCode: null, error: "TALLY_ALERT_WEBHOOK_URL is not set" };
    const body = JSON.stringify(m);
    const headers = c.TALLY_ALERT_WEBHOOK_SECRET
      ? signDelivery({ kind: "standard", toleranceSeconds: 300 }, c.TALLY_ALERT_WEBHOOK_SECRET, body, {
          id: messageId,
          timestamp: Math.floor(nowMs / 1000),
        })
      : { "webhook-id": messageId };
    return post(c.TALLY_ALERT_WEBHOOK_URL, body, headers, signal);
  }
  if (channel === "slack") {
    if (!c.TALLY_ALERT_SLACK_URL) return { ok: false, statusCode: null, error: "TALLY_ALERT_SLACK_URL is not set" };
    return post(c.TALLY_ALERT_SLACK_URL, JSON.stringify(slackBody(m)), {}, signal);
  }
  if (!c.TALLY_ALERT_SMTP_URL || !c.TALLY_ALERT_EMAIL_TO)
    return { ok: false, statusCode: null, error: "TALLY_ALERT_SMTP_URL and TALLY_ALERT_EMAIL_TO are not set" };
  const transport = nodemailer.createTransport({
    url: c.TALLY_ALERT_SMTP_URL,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  try {
    const { subject, text } = emailMessage(m);
    await transport.sendMail({
      from: c.TALLY_ALERT_EMAIL_FROM,
      to: c.TALLY_ALERT_EMAIL_TO,
      subject,
      text,
      messageId: `<${messageId}@tally>`,
    });
    return { ok: true, statusCode: null, error: null };
  } catch (err) {
    return { ok: false, statusCode: null, error: (err instanceof Error ? err.message : String(err)).slice(0, 300) };
  } finally {
    transport.close();
  }
}
