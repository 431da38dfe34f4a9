"use client";

import { RouteError, type RouteErrorProps } from "@/components/route-error";

export default function SettingsError(props: RouteErrorProps) {
  return <RouteError {...props} heading="Settings" title="Settings could not be loaded" />;
}
