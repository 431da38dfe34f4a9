import Link from "next/link";
import type { Overview } from "@/lib/overview/client";

/** A banner when an event type has no working subscription; webhooks for it will not arrive. */
export function SubscriptionAlerts({ alerts }: { alerts: Overview["subscriptionAlerts"] }) {
  if (alerts.length === 0) return null;
  return (
    <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
      <p className="font-medium">Webhooks will not reach Tally for every event type</p>
      <ul className="mt-1 list-disc pl-5">
        {alerts.map((a) => (
          <li key={a.eventType} className="break-words">
            {a.message}
          </li>
        ))}
      </ul>
      <p className="mt-1">
        Fix it on{" "}
        <Link href="/subscriptions" className="underline">
          Webhooks &amp; secrets
        </Link>
        .
      </p>
    </div>
  );
}
