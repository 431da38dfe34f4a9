"use client";

import { Can } from "@/components/auth/role-context";
import { useState } from "react";
import { missingEventTypes, type Spike } from "@/lib/subscriptions/client";
import { errorText } from "@/lib/browser/client";
import { RegisterWebhooks } from "@/components/subscriptions/register-webhooks";
import { SpikeBanner } from "@/components/subscriptions/spike-banner";
import { SubscriptionCard } from "@/components/subscriptions/subscription-card";
import { UnauthorizedChartView } from "@/components/subscriptions/unauthorized-chart";
import { CHART_MINUTES } from "@/components/subscriptions/query-keys";
import { useSubscriptions } from "@/components/subscriptions/use-subscriptions";
import { useUnauthorizedChart } from "@/components/subscriptions/use-unauthorized-chart";
import { Card } from "@/components/ui/card";
import { ErrorNotice, Skeleton } from "@/components/ui/feedback";

export function SubscriptionsClient() {
  const subs = useSubscriptions();
  const chart = useUnauthorizedChart(CHART_MINUTES);
  const items = subs.data?.items ?? [];
  const missing = subs.data ? missingEventTypes(items) : [];
  // spikes with a replay started here stay on screen after they pass, until dismissed
  const [held, setHeld] = useState<Spike[]>([]);
  const current = chart.data?.spikes ?? [];
  const banners = [...current, ...held.filter((h) => !current.some((c) => c.subscriptionId === h.subscriptionId))];
  const hold = (s: Spike) => setHeld((list) => [...list.filter((h) => h.subscriptionId !== s.subscriptionId), s]);
  const release = (id: string) => setHeld((list) => list.filter((h) => h.subscriptionId !== id));
  return (
    <div className="space-y-6">
      {banners.map((s) => (
        <SpikeBanner
          key={s.subscriptionId}
          spike={s}
          ongoing={current.includes(s)}
          onStarted={hold}
          onDismiss={() => release(s.subscriptionId)}
        />
      ))}
      {subs.error && <ErrorNotice title="Could not load the subscriptions" message={errorText(subs.error)} />}
      {missing.length > 0 && (
        <Card title="Register webhooks">
          <Can role="admin">
            <RegisterWebhooks missing={missing} none={items.length === 0} />
          </Can>
        </Card>
      )}
      <Card title="401s per minute, last hour">
        {chart.error && <ErrorNotice title="Could not load the chart" message={errorText(chart.error)} />}
        {chart.data ? (
          <UnauthorizedChartView chart={chart.data} />
        ) : (
          !chart.error && <Skeleton className="h-64 w-full" />
        )}
      </Card>
      <section aria-labelledby="subscriptions-title" className="space-y-3">
        <h2 id="subscriptions-title" className="text-sm font-semibold uppercase tracking-wide text-slate-600">
          Subscriptions
        </h2>
        {!subs.data && !subs.error && <Skeleton className="h-32 w-full" />}
        <div className="grid gap-4 lg:grid-cols-2">
          {items.map((s) => (
            <SubscriptionCard key={s.id} subscription={s} />
          ))}
        </div>
      </section>
    </div>
  );
}
