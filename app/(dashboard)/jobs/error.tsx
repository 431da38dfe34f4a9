"use client";

import { RouteError, type RouteErrorProps } from "@/components/route-error";

export default function JobsError(props: RouteErrorProps) {
  return <RouteError {...props} heading="Jobs" title="Jobs could not be loaded" />;
}
