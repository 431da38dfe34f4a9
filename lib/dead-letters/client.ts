// lib/dead-letters's surface for client components (no server code): what other folders and the browser may import.
export { actionSummarySchema, type DeadLetterPage, deadLetterPageSchema } from "./contracts";
