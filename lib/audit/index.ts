import "server-only";
// lib/audit's surface: what other folders import from it (its files import each other directly).
export * from "./client";
export { audit } from "./audit";
export { audited, type AuditEntry } from "./audited";
export { listAuditPage } from "./list";
