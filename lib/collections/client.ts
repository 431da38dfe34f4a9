// lib/collections's surface for client components (no server code): what other folders and the browser may import.
export {
  changePageSchema,
  type CollectionDetail,
  type CollectionRun,
  collectionSummarySchema,
  startedRunSchema,
  type UrlHistory,
  type UrlHistoryItem,
  urlHistorySchema,
} from "./contracts";
