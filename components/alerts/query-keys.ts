// Query keys for the Alerts page; a test send invalidates alertKeys.all.
export const alertKeys = {
  all: ["alerts"] as const,
  view: () => [...alertKeys.all, "view"] as const,
};
