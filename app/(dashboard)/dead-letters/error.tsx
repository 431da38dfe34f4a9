"use client";

import { RouteError, type RouteErrorProps } from "@/components/route-error";

export default function DeadLettersError(props: RouteErrorProps) {
  return <RouteError {...props} heading="Dead letters" title="Dead letters could not be loaded" />;
}
