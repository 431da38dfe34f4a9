"use client";

import { useState } from "react";
import { Can } from "@/components/auth/role-context";
import { ChannelList } from "@/components/alerts/channel-list";
import { HistoryTable } from "@/components/alerts/history-table";
import { RuleTable } from "@/components/alerts/rule-table";
import { useAlerts } from "@/components/alerts/use-alerts";
import { useSendTestAlert } from "@/components/alerts/use-send-test-alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorNotice, Notice, PageSkeleton } from "@/components/ui/feedback";
import type { Channel, ChannelView } from "@/lib/alerts/client";
import { errorText } from "@/lib/browser/client";

function TestButton({ channel }: { channel: ChannelView }) {
  return (
    <Can role="operator">
      <SendTest channel={channel} />
    </Can>
  );
}

function SendTest({ channel }: { channel: ChannelView }) {
  const send = useSendTestAlert();
  const [last, setLast] = useState<Channel | null>(null);
  const result = last === channel.channel ? send.data : undefined;
  return (
    <div className="flex flex-col items-end gap-1">
      <Button
        variant="secondary"
        disabled={!channel.configured}
        pending={send.isPending}
        pendingLabel="Sending…"
        onClick={() => {
          setLast(channel.channel);
          send.mutate(channel.channel);
        }}
      >
        Send test alert
      </Button>
      {result && (
        <span role="status" className={`text-xs ${result.ok ? "text-emerald-700" : "text-red-700"}`}>
          {result.ok ? "Test alert sent" : `Not delivered: ${result.error ?? "unknown error"}`}
        </span>
      )}
      {send.error && (
        <span role="alert" className="text-xs text-red-700">
          {send.error.message}
        </span>
      )}
    </div>
  );
}

export function AlertsClient() {
  const { data, error } = useAlerts();
  if (!data)
    return error ? <ErrorNotice title="Could not load the alerts" message={errorText(error)} /> : <PageSkeleton />;
  const firing = data.rules.filter((r) => r.state === "firing").length;
  return (
    <div className="space-y-6">
      {error && <ErrorNotice title="Refresh failed; showing the last state" message={error.message} />}
      <p className="text-sm text-slate-700" data-testid="alerts-firing">
        {firing === 0 ? "No rule is firing." : `${firing} rule${firing === 1 ? " is" : "s are"} firing.`} Rules are
        checked every {data.evaluateEverySeconds} s; a firing alert repeats at most every {data.repeatMinutes} min and
        sends a &ldquo;resolved&rdquo; when it clears.
      </p>
      <Card title="Rules">
        <RuleTable rules={data.rules} />
      </Card>
      <Card title="Channels">
        {!data.channels.some((c) => c.configured) && (
          <div className="mb-3">
            <Notice tone="warn">No channel is configured: alerts are recorded here but sent nowhere.</Notice>
          </div>
        )}
        <ChannelList channels={data.channels} action={(c) => <TestButton channel={c} />} />
      </Card>
      <Card title="History">
        <HistoryTable events={data.history} />
      </Card>
    </div>
  );
}
