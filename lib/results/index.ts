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
export { CSV_PAGE, type CsvExport, csvResponse, csvStream } from "./csv-stream";
export { exportResults } from "./export";
export { readFeed } from "./feed";
export { listJobResults } from "./job-results";
export { parseMetadata } from "./rows";
export { exportRunCsv, exportRunJsonl } from "./run-export";
