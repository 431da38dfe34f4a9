import type { EventType } from "../platform";

// What the receiver writes and reads through its own connection, whichever the store.

export type SecretRow = {
  id: string;
  eventType: string;
  isActive: number;
  scheme: string;
  secret: string | null;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
};

export type LogRow = {
  subscriptionId: string | null;
  deliveryId: string | null;
  eventType: string | null;
  jobId: string | null;
  status: number;
  reason: string | null;
  latencyMs: number;
  bodyBytes: number;
};

export type Accept = {
  jobId: string;
  eventType: EventType;
  deliveryId: string | null;
  subscriptionId: string | null;
  maxAttempts: number;
  /** The receipt span's traceparent for the queue item's row (lib/tracing); null with tracing off. */
  traceContext: string | null;
};

export type ReceiverStore = {
  /** Resolves only after the receipt, queue item and log row are committed. */
  accept(a: Accept, logRow: Omit<LogRow, "status" | "reason">): Promise<"accepted" | "duplicate">;
  log(row: LogRow): Promise<unknown>;
  secrets(): Promise<SecretRow[]>;
  close(): Promise<void>;
};
