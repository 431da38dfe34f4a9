"use client";

import { RouteError, type RouteErrorProps } from "@/components/route-error";

export default function OutboundError(props: RouteErrorProps) {
  return <RouteError {...props} heading="Outbound" title="Outbound deliveries could not be loaded" />;
}
