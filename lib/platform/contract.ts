import "server-only";
// lib/platform's contract surface: the platform's API as schemas and event types, no client and no
// state. The simulator imitates the platform from this alone (lib/simulator stands alone).
export * from "./batch-crawl-schemas";
export * from "./events";
export * from "./schemas";
export * from "./webhook-schemas";
