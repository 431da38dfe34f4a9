import "server-only";
// lib/demo's surface: what other folders import from it (its files import each other directly).
export * from "./client";
export { readSimulatorKnobs, saveSimulatorKnobs } from "./knobs";
export { startDemoMode } from "./start";
