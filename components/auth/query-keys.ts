// Query keys of the accounts feature; shared by the server pages (prefetch) and the hooks.

export const accountKeys = {
  all: ["accounts"] as const,
  users: () => [...accountKeys.all, "users"] as const,
  tokens: () => [...accountKeys.all, "tokens"] as const,
  sessions: () => [...accountKeys.all, "sessions"] as const,
};
