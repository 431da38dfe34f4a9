// lib/overview's surface for client components (no server code): what other folders and the browser may import.
export { type Overview, overviewSchema } from "./contracts";
export { type Throughput, throughputQuerySchema, type ThroughputRange, throughputSchema } from "./throughput-contracts";
