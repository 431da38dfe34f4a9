// Query keys of the settings feature; shared by the server page (prefetch) and the hooks.

export const settingsKeys = {
  all: ["settings"] as const,
  simulator: () => [...settingsKeys.all, "simulator"] as const,
};
