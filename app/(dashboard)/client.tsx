"use client";

import { LedgerCard } from "@/components/overview/ledger-card";
import { SubscriptionAlerts } from "@/components/overview/subscription-alerts";
import {
  DeadLettersTile,
  DeliveriesTile,
  PlatformStatusTile,
  QueueTile,
  ReconcileTile,
} from "@/components/overview/tiles";
import { ThroughputChart } from "@/components/overview/throughput-chart";
import { OVERVIEW_REFRESH_MS, useOverview } from "@/components/overview/use-overview";
import { ErrorNotice, PageSkeleton } from "@/components/ui/feedback";
import { RefreshingNote } from "@/components/ui/refreshing";
import { Time } from "@/components/ui/time";
import { errorText } from "@/lib/browser/client";

export function OverviewClient() {
  const { data, error, isFetching } = useOverview();
  if (!data)
    return error ? <ErrorNotice title="Could not load the overview" message={errorText(error)} /> : <PageSkeleton />;
  return (
    <div className="space-y-4">
      <p className="text-xs text-slate-500" aria-live="polite">
        {data.mode} mode · {data.deliveryMode} · updated <Time iso={data.generatedAt} /> · refreshes every{" "}
        {OVERVIEW_REFRESH_MS / 1000} s
        <RefreshingNote active={isFetching} />
      </p>
      {error && <ErrorNotice title="Live refresh failed; showing the last figures" message={error.message} />}
      <SubscriptionAlerts alerts={data.subscriptionAlerts} />
      <div className="grid gap-4 lg:grid-cols-3">
        <LedgerCard ledger={data.ledger} />
        <ThroughputChart />
        <PlatformStatusTile rows={data.byPlatformStatus} />
        <QueueTile queue={data.queue} />
        <DeliveriesTile deliveries={data.deliveries} />
        <DeadLettersTile open={data.deadLettersOpen} />
        <ReconcileTile run={data.lastReconciliation} className="lg:col-span-2" />
      </div>
    </div>
  );
}
