// Query keys of the subscriptions feature; shared by the server page (prefetch) and the hooks.

export const subscriptionKeys = {
  all: ["subscriptions"] as const,
  list: () => [...subscriptionKeys.all, "list"] as const,
  unauthorized: (minutes: number) => [...subscriptionKeys.all, "unauthorized", minutes] as const,
};

export const CHART_MINUTES = 60;
