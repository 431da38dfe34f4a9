"use client";

import { Can } from "@/components/auth/role-context";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { errorText } from "@/lib/browser/client";
import { DeliveryFilters, type OutboundFilter } from "@/components/outbound/delivery-filters";
import { DeliveryTable } from "@/components/outbound/delivery-table";
import { DestinationCard } from "@/components/outbound/destination-card";
import { DestinationForm } from "@/components/outbound/destination-form";
import { deliverySearch } from "@/components/outbound/query-keys";
import { useDestinationHealth, useDestinations } from "@/components/outbound/use-destinations";
import { useOutboundDeliveries } from "@/components/outbound/use-outbound-deliveries";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CursorPager, useCursorStack } from "@/components/ui/cursor-pager";
import { ErrorNotice, Skeleton } from "@/components/ui/feedback";

export function OutboundClient({ initialFilter }: { initialFilter: OutboundFilter }) {
  const router = useRouter();
  const path = usePathname();
  const [filter, setFilter] = useState<OutboundFilter>(initialFilter);
  const [live, setLive] = useState(true);
  const filterKey = JSON.stringify(filter);
  const pages = useCursorStack(filterKey);
  const destinations = useDestinations();
  const health = useDestinationHealth();
  const query = { ...filter, limit: 50, cursor: pages.cursor };
  const deliveries = useOutboundDeliveries(query, live);
  const items = destinations.data?.items ?? [];

  // The filters are kept in the address, so a view can be shared and reloads the same.
  const apply = (next: OutboundFilter) => {
    setFilter(next);
    router.replace(`${path}${deliverySearch(next)}`, { scroll: false });
  };

  return (
    <div className="space-y-6">
      <section aria-labelledby="destinations-title" className="space-y-3">
        <h2 id="destinations-title" className="text-sm font-semibold uppercase tracking-wide text-slate-600">
          Destinations
        </h2>
        {destinations.error && (
          <ErrorNotice title="Could not load the destinations" message={errorText(destinations.error)} />
        )}
        {health.error && <ErrorNotice title="Could not load destination health" message={errorText(health.error)} />}
        {!destinations.data && !destinations.error && <Skeleton className="h-32 w-full" />}
        {destinations.data && items.length === 0 && (
          <p className="text-sm text-slate-600">
            No destinations yet. Add one below, and every job outcome from then on is sent to it, signed.
          </p>
        )}
        <div className="grid gap-4 lg:grid-cols-2">
          {items.map((d) => (
            <DestinationCard
              key={d.id}
              destination={d}
              health={health.data?.items.find((h) => h.destinationId === d.id)}
            />
          ))}
        </div>
      </section>
      <Card title="Add a destination">
        <Can role="admin">
          <DestinationForm />
        </Can>
      </Card>
      <Card title="Deliveries">
        <DeliveryFilters value={filter} destinations={items} onChange={apply} />
        <div className="mt-3 flex flex-wrap items-center gap-2 text-xs text-slate-600">
          <Button variant="ghost" aria-pressed={live} onClick={() => setLive(!live)}>
            {live ? "Pause live refresh" : "Resume live refresh"}
          </Button>
          <span role="status">{live ? "The newest page refreshes every few seconds." : "Live refresh paused."}</span>
        </div>
        <div className="mt-3">
          {deliveries.error && (
            <div className="mb-2">
              <ErrorNotice title="Could not load the deliveries" message={errorText(deliveries.error)} />
            </div>
          )}
          <DeliveryTable
            rows={deliveries.data?.items ?? []}
            filtered={Boolean(filter.destinationId || filter.status)}
          />
          <CursorPager
            label="Deliveries"
            page={pages.page}
            nextCursor={deliveries.data?.nextCursor}
            onOlder={pages.older}
            onNewer={pages.newer}
            onNewest={pages.newest}
          />
        </div>
      </Card>
    </div>
  );
}
