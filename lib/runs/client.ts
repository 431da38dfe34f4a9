// lib/runs's surface for client components (no server code): what other folders and the browser may import.
export {
  CAP_NAMES,
  type CapHit,
  type CapName,
  type ChangeCounts,
  changeCountsSchema,
  CHANGES,
  createdRunSchema,
  RUN_STATES,
  type RunCounts,
  runCountsSchema,
  runListSchema,
  runUrlPageSchema,
  type RunUrlView,
  type RunView,
  runViewSchema,
  URL_STATES,
  type UrlState,
} from "./contracts";
export { parseText } from "./parse-list";
export { DEFAULT_ESCALATION, escalationSchema, maxTokensSchema, rungName, rungSchema, type Rung } from "./escalation";
