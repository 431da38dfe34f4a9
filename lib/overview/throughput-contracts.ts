import { z } from "zod";

// The overview's activity chart: per time bucket, webhook deliveries accepted and refused, and job
// outcomes recorded (stored, resubmitted, dead-lettered, cancelled). Shared by the route and the browser.

export const THROUGHPUT_RANGES = {
  hour: { buckets: 60, bucketMs: 60_000 },
  day: { buckets: 24, bucketMs: 3_600_000 },
} as const;
export type ThroughputRange = keyof typeof THROUGHPUT_RANGES;

export const throughputQuerySchema = z.object({
  range: z.enum(["hour", "day"], { error: "range must be hour or day" }).default("hour"),
});

export type ThroughputPoint = {
  t: number;
  accepted: number;
  refused: number;
  stored: number;
  resubmitted: number;
  dead_lettered: number;
  cancelled: number;
};

export type Throughput = {
  range: ThroughputRange;
  bucketMs: number;
  from: string;
  to: string;
  points: ThroughputPoint[];
  totals: Omit<ThroughputPoint, "t">;
  /** More rows than the chart reads in one go: the oldest buckets are undercounted. */
  truncated: boolean;
};
