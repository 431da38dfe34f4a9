import "server-only";
// lib/overview's surface: what other folders import from it (its files import each other directly).
export * from "./client";
export { getOverview } from "./overview";
export { throughput } from "./throughput";
