"use client";

import { RouteError, type RouteErrorProps } from "@/components/route-error";

export default function SubscriptionsError(props: RouteErrorProps) {
  return <RouteError {...props} heading="Webhooks & secrets" title="Webhooks & secrets could not be loaded" />;
}
