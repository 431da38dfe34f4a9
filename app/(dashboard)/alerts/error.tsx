"use client";

import { RouteError, type RouteErrorProps } from "@/components/route-error";

export default function AlertsError(props: RouteErrorProps) {
  return <RouteError {...props} heading="Alerts" title="Alerts could not be loaded" />;
}
