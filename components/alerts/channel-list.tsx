import { Badge } from "@/components/ui/badge";
import { Time } from "@/components/ui/time";
import type { ChannelView } from "@/lib/alerts/client";

const LABEL = { webhook: "Webhook", slack: "Slack", email: "E-mail" } as const;
const SETTINGS = {
  webhook: "TALLY_ALERT_WEBHOOK_URL (+ TALLY_ALERT_WEBHOOK_SECRET to sign)",
  slack: "TALLY_ALERT_SLACK_URL",
  email: "TALLY_ALERT_SMTP_URL and TALLY_ALERT_EMAIL_TO",
} as const;

/** The three channels: where each sends (secrets masked), its health, and an optional action per channel. */
export function ChannelList({
  channels,
  action,
}: {
  channels: ChannelView[];
  action?: (c: ChannelView) => React.ReactNode;
}) {
  return (
    <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
      {channels.map((c) => (
        <li
          key={c.channel}
          className="flex flex-wrap items-start justify-between gap-3 p-3"
          data-testid={`channel-${c.channel}`}
        >
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-sm font-semibold">{LABEL[c.channel]}</span>
              {!c.configured ? (
                <Badge>not configured</Badge>
              ) : c.health === "failing" ? (
                <Badge tone="bad">failing</Badge>
              ) : c.health === "ok" ? (
                <Badge tone="good">delivering</Badge>
              ) : (
                <Badge tone="info">configured, nothing sent yet</Badge>
              )}
              {c.signed !== null && c.configured && (
                <Badge tone={c.signed ? "good" : "warn"}>{c.signed ? "signed" : "unsigned"}</Badge>
              )}
            </div>
            <div className="mt-1 break-all font-mono text-xs text-slate-600">
              {c.configured ? c.target : `Set ${SETTINGS[c.channel]}`}
            </div>
            {c.health === "failing" && c.lastError && (
              <div className="mt-1 break-words text-xs text-red-700">
                Last attempt failed: {c.lastError} (<Time iso={c.lastAttemptAt} relative />)
              </div>
            )}
          </div>
          {action?.(c)}
        </li>
      ))}
    </ul>
  );
}
