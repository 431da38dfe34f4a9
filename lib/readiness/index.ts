import "server-only";
// lib/readiness's surface: GET /api/ready's checks (the database, its migrations, the body store, draining).
export {
  checkReadiness,
  notReadySchema,
  READY_CACHE_MS,
  READY_REASONS,
  type Readiness,
  type ReadyReason,
  readyOkSchema,
} from "./ready";
