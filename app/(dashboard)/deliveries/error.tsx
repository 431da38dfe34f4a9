"use client";

import { RouteError, type RouteErrorProps } from "@/components/route-error";

export default function DeliveriesError(props: RouteErrorProps) {
  return <RouteError {...props} heading="Deliveries" title="Deliveries could not be loaded" />;
}
