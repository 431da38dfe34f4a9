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

const count = z.number().int().nonnegative();
const figures = {
  accepted: count,
  refused: count,
  stored: count,
  resubmitted: count,
  dead_lettered: count,
  cancelled: count,
};
export const throughputPointSchema = z.object({ t: z.number(), ...figures });
export type ThroughputPoint = z.infer<typeof throughputPointSchema>;

/** GET /api/overview/throughput. */
export const throughputSchema = z.object({
  range: z.enum(["hour", "day"]),
  bucketMs: z.number(),
  from: z.string(),
  to: z.string(),
  points: z.array(throughputPointSchema),
  totals: z.object(figures),
  /** More rows than the chart reads in one go: the oldest buckets are undercounted. */
  truncated: z.boolean(),
});
export type Throughput = z.infer<typeof throughputSchema>;
