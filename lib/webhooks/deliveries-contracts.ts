import { z } from "zod";

// The wire shapes of GET /api/deliveries, shared by the route, the server page and the browser,
// so a prefetched page and a refetched one are the same object.

/** "2xx" … "5xx", an exact code such as "401", or "none" (platform attempts that got no answer). */
export const statusFilterSchema = z
  .string()
  .trim()
  .regex(/^([1-5]xx|[1-5]\d\d|none)$/, { error: 'use a class such as "4xx", an exact code such as "401", or "none"' });

export const windowSchema = z.enum(["15m", "1h", "24h", "7d"]);
export const WINDOWS = { "15m": 15 * 60_000, "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000 } as const;
export type DeliveryWindow = keyof typeof WINDOWS;

const isoDate = z.iso.datetime({ offset: true, error: "must be an ISO date-time such as 2026-01-31T12:00:00Z" });
const blankToUndefined = (v: unknown) => (v === "" ? undefined : v);

/** Filters of both logs; the same object drives the URL, the query key and the route's query. */
export const deliveryFilterSchema = z.object({
  status: z.preprocess(blankToUndefined, statusFilterSchema.optional()),
  window: z.preprocess(blankToUndefined, windowSchema.optional()),
  from: z.preprocess(blankToUndefined, isoDate.optional()),
  to: z.preprocess(blankToUndefined, isoDate.optional()),
  subscriptionId: z.preprocess(blankToUndefined, z.string().max(200).optional()),
});
export type DeliveryFilter = z.infer<typeof deliveryFilterSchema>;

export const deliveryQuerySchema = deliveryFilterSchema.extend({
  log: z.enum(["inbound", "platform"]).default("inbound"),
  cursor: z.preprocess(blankToUndefined, z.string().max(200).optional()),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type DeliveryQuery = z.infer<typeof deliveryQuerySchema>;

export const inboundRowSchema = z.object({
  id: z.number().int(),
  receivedAt: z.string(),
  subscriptionId: z.string().nullable(),
  deliveryId: z.string().nullable(),
  eventType: z.string().nullable(),
  jobId: z.string().nullable(),
  status: z.number().int(),
  reason: z.string().nullable(),
  latencyMs: z.number().int(),
});
export type InboundRow = z.infer<typeof inboundRowSchema>;

export const platformRowSchema = z.object({
  id: z.string(),
  subscriptionId: z.string().nullable(),
  webhookId: z.string(),
  eventType: z.string().nullable(),
  jobId: z.string().nullable(),
  attemptNumber: z.number().int(),
  status: z.string(),
  httpStatus: z.number().int().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type PlatformRow = z.infer<typeof platformRowSchema>;

export const inboundPageSchema = z.object({ items: z.array(inboundRowSchema), nextCursor: z.string().nullable() });
export const platformPageSchema = z.object({ items: z.array(platformRowSchema), nextCursor: z.string().nullable() });
export type InboundPage = z.infer<typeof inboundPageSchema>;
export type PlatformPage = z.infer<typeof platformPageSchema>;

/** Filters as URL search parameters (empty ones left out), for links and fetches. */
export function filterToParams(filter: DeliveryFilter): URLSearchParams {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (typeof v === "string" && v !== "") p.set(k, v);
  return p;
}

/** A page's search parameters as filters; anything invalid is dropped and reported, not fatal. */
export function parseDeliveryFilter(params: Record<string, string | string[] | undefined>): {
  filter: DeliveryFilter;
  problem: string | null;
} {
  const first = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  const parsed = deliveryFilterSchema.safeParse(first);
  if (parsed.success) return { filter: normalize(parsed.data), problem: null };
  const issue = parsed.error.issues[0];
  return { filter: {}, problem: issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid filters" };
}

/** Only the filters that are set, so equal filters make equal query keys. */
export function normalize(filter: DeliveryFilter): DeliveryFilter {
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== ""));
}
