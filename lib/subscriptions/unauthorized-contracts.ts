import { z } from "zod";

// GET /api/deliveries/unauthorized: 401s answered by the receiver, per minute and per subscription,
// with the rotations as markers and the subscriptions whose 401s spike right now.

export const SPIKE_WINDOW_MINUTES = 5;
export const SPIKE_THRESHOLD = 3;

export const unauthorizedQuerySchema = z.object({
  minutes: z.coerce
    .number()
    .int()
    .min(5)
    .max(24 * 60)
    .default(60),
});

export const chartSeriesSchema = z.object({
  /** subscription id, or "unknown" for 401s on the shared URL that matched no subscription */
  key: z.string(),
  label: z.string(),
  total: z.number().int(),
});

export const chartPointSchema = z.object({
  /** start of the minute, epoch milliseconds */
  t: z.number().int(),
  counts: z.record(z.string(), z.number().int()),
});

export const rotationMarkerSchema = z.object({
  subscriptionId: z.string(),
  at: z.string(),
  source: z.string(),
  actor: z.string(),
});

export const spikeSchema = z.object({
  subscriptionId: z.string(),
  eventType: z.string(),
  /** the subscription's own words and address, so the banner names which one of several */
  description: z.string().nullable(),
  url: z.string(),
  /** 401s in the last SPIKE_WINDOW_MINUTES minutes */
  recent: z.number().int(),
  /** the first 401 of the current run of 401s (since the last accepted delivery or rotation) */
  since: z.string(),
  lastRotationAt: z.string().nullable(),
});

export const unauthorizedChartSchema = z.object({
  from: z.string(),
  to: z.string(),
  series: z.array(chartSeriesSchema),
  points: z.array(chartPointSchema),
  markers: z.array(rotationMarkerSchema),
  spikes: z.array(spikeSchema),
  /** true when more 401s arrived than the chart reads; the counts are then a lower bound */
  truncated: z.boolean(),
});
export type UnauthorizedChart = z.infer<typeof unauthorizedChartSchema>;
export type Spike = z.infer<typeof spikeSchema>;
