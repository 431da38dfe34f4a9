"use client";

import { Can } from "@/components/auth/role-context";
import { useState } from "react";
import type { DestinationHealth, DestinationView } from "@/lib/outbound/client";
import { errorText } from "@/lib/browser/client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorNotice } from "@/components/ui/feedback";
import { formatCount, formatPercent } from "@/components/ui/figures";
import { Time } from "@/components/ui/time";
import { ReplaySinceForm } from "./replay-since-form";
import { useSetDestinationEnabled } from "./use-set-destination-enabled";

function rateTone(rate: number | null) {
  if (rate === null) return "text-slate-900";
  return rate >= 0.99 ? "text-emerald-700" : rate >= 0.9 ? "text-amber-700" : "text-red-700";
}

/** A sink's config as the server sent it: every credential already masked; values shown as text. */
function SinkConfigList({ config }: { config: Record<string, unknown> }) {
  return (
    <dl className="mt-2 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs">
      {Object.entries(config).map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-slate-600">{k}</dt>
          <dd className="break-all font-mono text-slate-800">{typeof v === "string" ? v : JSON.stringify(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One destination: where it sends, what, its health over the last day, and its actions. */
export function DestinationCard({
  destination: d,
  health: h,
}: {
  destination: DestinationView;
  health?: DestinationHealth;
}) {
  const toggle = useSetDestinationEnabled();
  const [confirming, setConfirming] = useState(false);
  const failing = (h?.byStatus.retrying ?? 0) + (h?.byStatus.dead ?? 0);
  return (
    <article
      className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm"
      aria-label={`Destination ${d.url}`}
      data-testid="destination-card"
    >
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={d.enabled ? "good" : "neutral"}>{d.enabled ? "enabled" : "disabled"}</Badge>
        <Badge tone={d.type === "webhook" ? "neutral" : "info"}>{d.type}</Badge>
        {d.source === "config" && <Badge tone="info">from TALLY_FORWARD_URL</Badge>}
        <code className="text-xs text-slate-500">{d.id}</code>
      </div>
      <p className="mt-2 break-all font-mono text-sm">{d.url}</p>
      <p className="mt-1 text-xs text-slate-600">
        {d.events.join(" · ")}
        {d.type === "webhook" ? ` · secret ••••${d.secretLast4}` : ""}
      </p>
      {d.config && <SinkConfigList config={d.config} />}
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-4">
        <div>
          <dt className="text-xs text-slate-600">Success, {h?.windowHours ?? 24} h</dt>
          <dd className={`text-lg font-semibold tabular-nums ${rateTone(h?.successRate ?? null)}`}>
            {formatPercent(h?.successRate ?? null)}
          </dd>
          <dd className="text-xs text-slate-500">{formatCount(h?.attempts ?? 0)} attempts</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">Delivered</dt>
          <dd className="text-lg font-semibold tabular-nums">{formatCount(h?.byStatus.delivered ?? 0)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">Failing · dead</dt>
          <dd className={`text-lg font-semibold tabular-nums ${failing ? "text-red-700" : ""}`}>
            {formatCount(h?.byStatus.retrying ?? 0)} · {formatCount(h?.byStatus.dead ?? 0)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">Last success</dt>
          <dd>
            <Time iso={h?.lastSuccessAt} relative />
          </dd>
        </div>
      </dl>
      {h?.lastError && (
        <p className="mt-2 break-words text-xs text-red-800">
          Last error <Time iso={h.lastErrorAt} relative />: {h.lastError}
        </p>
      )}
      <Can role="admin">
        <div className="mt-3 flex flex-wrap items-end gap-2">
          {d.enabled ? (
            <Button variant="secondary" onClick={() => setConfirming(true)}>
              Disable
            </Button>
          ) : (
            <Button
              variant="secondary"
              pending={toggle.isPending}
              onClick={() => toggle.mutate({ id: d.id, enabled: true })}
            >
              Enable
            </Button>
          )}
        </div>
      </Can>
      {d.enabled && (
        <Can role="operator">
          <ReplaySinceForm destinationId={d.id} />
        </Can>
      )}
      {toggle.error && (
        <div className="mt-2">
          <ErrorNotice title="Not changed" message={errorText(toggle.error)} />
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title="Disable this destination?"
        confirmLabel="Disable"
        tone="danger"
        pending={toggle.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => toggle.mutate({ id: d.id, enabled: false }, { onSettled: () => setConfirming(false) })}
      >
        <p className="text-sm">
          Tally stops sending to {d.url}. Events already queued for it are skipped, not sent. You can enable it again
          later; events from the time it was disabled are not sent.
        </p>
      </ConfirmDialog>
    </article>
  );
}
