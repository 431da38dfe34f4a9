"use client";

import { RouteError, type RouteErrorProps } from "@/components/route-error";

export default function OperationsError(props: RouteErrorProps) {
  return <RouteError {...props} heading="Operations" title="Operations could not be loaded" />;
}
