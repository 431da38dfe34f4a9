"use client";

import { RouteError, type RouteErrorProps } from "@/components/route-error";

export default function BudgetError(props: RouteErrorProps) {
  return <RouteError {...props} heading="API budget" title="The API budget could not be loaded" />;
}
