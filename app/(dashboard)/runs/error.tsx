"use client";

import { RouteError, type RouteErrorProps } from "@/components/route-error";

export default function RunsError(props: RouteErrorProps) {
  return <RouteError {...props} heading="Runs" title="Runs could not be loaded" />;
}
