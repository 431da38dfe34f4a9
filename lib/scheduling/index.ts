import "server-only";
// lib/scheduling's surface: what other folders import from it (its files import each other directly).
export { claimTick, holdLease, PROCESS_TAG } from "./lease";
export { singleFlight } from "./single-flight";
