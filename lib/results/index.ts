import "server-only";
// lib/results's surface: what other folders import from it (its files import each other directly).
export {
  exportQuerySchema,
  feedQuerySchema,
  jobResultsParamsSchema,
  jobResultsQuerySchema,
  type ResultItem,
  type ResultPreview,
} from "./contracts";
export {
  bodySize,
  CSV_PAGE,
  type CsvExport,
  csvResponse,
  csvStream,
  PAGE_BODY_CHARS,
  withinBudget,
} from "./csv-stream";
export {
  type BodyAudience,
  type BodyColumns,
  bodyColumns,
  bodyColumnsShape,
  readBody,
  type Resolved,
  resolveBodies,
  resolveRow,
  resultName,
} from "./bodies";
export { exportResults } from "./export";
export { readFeed } from "./feed";
export { listJobResults } from "./job-results";
export { parseMetadata } from "./rows";
export { exportRunCsv, exportRunJsonl } from "./run-export";
export { migrateInlineBodies, type MigrateProgress, verifyBodies, type VerifyReport } from "./migrate-bodies";
export { expireCollectionRunBodies, expireResultBodies } from "./retention-bodies";
