"use client";

import { Can } from "@/components/auth/role-context";
import { usePathname, useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { type DeliveryFilter, filterToParams } from "@/lib/webhooks/client";
import { errorText } from "@/lib/browser/client";
import { DeliveryFilters } from "@/components/deliveries/delivery-filters";
import { InboundTable } from "@/components/deliveries/inbound-table";
import { PlatformTable } from "@/components/deliveries/platform-table";
import { ReplayPanel } from "@/components/deliveries/replay-panel";
import type { SubscriptionOption } from "@/components/deliveries/subscription-label";
import { useInboundDeliveries } from "@/components/deliveries/use-inbound-deliveries";
import { usePlatformDeliveries } from "@/components/deliveries/use-platform-deliveries";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CursorPager, useCursorStack } from "@/components/ui/cursor-pager";
import { ErrorNotice, Notice } from "@/components/ui/feedback";

export function DeliveriesClient({
  filter,
  filterProblem,
  subscriptions,
}: {
  filter: DeliveryFilter;
  filterProblem: string | null;
  subscriptions: SubscriptionOption[];
}) {
  const router = useRouter();
  const path = usePathname();
  const [pending, startTransition] = useTransition();
  const [live, setLive] = useState(true);
  const filterKey = JSON.stringify(filter);
  const inboundPages = useCursorStack(filterKey);
  const platformPages = useCursorStack(filterKey);
  const inbound = useInboundDeliveries(filter, inboundPages.cursor, live);
  const platform = usePlatformDeliveries(filter, platformPages.cursor, live);
  const filtered = Object.keys(filter).length > 0;

  // Filters live in the URL, so a view can be shared and the server renders its first page.
  const apply = (next: DeliveryFilter) =>
    startTransition(() => router.replace(`${path}?${filterToParams(next)}`, { scroll: false }));

  return (
    <div className="space-y-6">
      <Card title="Replay failures">
        <Can role="operator">
          <ReplayPanel subscriptions={subscriptions} />
        </Can>
      </Card>
      <Card>
        {filterProblem && (
          <div className="mb-3">
            <Notice tone="warn">Some filters in the address were ignored ({filterProblem}).</Notice>
          </div>
        )}
        <DeliveryFilters
          key={filterKey}
          value={filter}
          subscriptions={subscriptions}
          onApply={apply}
          pending={pending}
        />
        <div className="mt-3 flex items-center gap-2 text-xs text-slate-600">
          <Button variant="ghost" aria-pressed={live} onClick={() => setLive(!live)}>
            {live ? "Pause live refresh" : "Resume live refresh"}
          </Button>
          <span role="status">{live ? "The newest pages refresh every few seconds." : "Live refresh paused."}</span>
        </div>
      </Card>
      <Card title="Inbound log">
        {inbound.error && (
          <div className="mb-2">
            <ErrorNotice title="Could not load the inbound log" message={errorText(inbound.error)} />
          </div>
        )}
        <InboundTable rows={inbound.data?.items ?? []} subscriptions={subscriptions} filtered={filtered} />
        <CursorPager
          label="Inbound log"
          page={inboundPages.page}
          nextCursor={inbound.data?.nextCursor}
          onOlder={inboundPages.older}
          onNewer={inboundPages.newer}
          onNewest={inboundPages.newest}
        />
      </Card>
      <Card title="Platform delivery log">
        {platform.error && (
          <div className="mb-2">
            <ErrorNotice title="Could not load the platform log" message={errorText(platform.error)} />
          </div>
        )}
        <PlatformTable rows={platform.data?.items ?? []} subscriptions={subscriptions} filtered={filtered} />
        <CursorPager
          label="Platform log"
          page={platformPages.page}
          nextCursor={platform.data?.nextCursor}
          onOlder={platformPages.older}
          onNewer={platformPages.newer}
          onNewest={platformPages.newest}
        />
      </Card>
    </div>
  );
}
