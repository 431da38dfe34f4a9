"use client";

import { RouteError, type RouteErrorProps } from "@/components/route-error";

// Also the boundary for sections without their own error.tsx, so it names no page.
export default function DashboardError(props: RouteErrorProps) {
  return <RouteError {...props} title="This page could not be loaded" />;
}
