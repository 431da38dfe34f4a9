import "server-only";
import type { Prisma } from "@/generated/prisma/client";
import { db } from "../db";
import {
  WINDOWS,
  type DeliveryFilter,
  type DeliveryQuery,
  type InboundPage,
  type PlatformPage,
} from "./deliveries-contracts";
import { decodeKeyset, encodeCursor, intId, pageOf, textId } from "../keyset";

// The two delivery logs for the Deliveries page: what our receiver answered (InboundDelivery) and the
// platform's own record of its attempts (PlatformDelivery). Every filter maps onto an index that ends
// in the time column, so pages stay index range reads at millions of rows.

type Range = { gte?: Date; lte?: Date };

function timeRange(filter: DeliveryFilter, now: Date): Range | undefined {
  const range: Range = {};
  if (filter.window) range.gte = new Date(now.getTime() - WINDOWS[filter.window]);
  if (filter.from) range.gte = new Date(filter.from);
  if (filter.to) range.lte = new Date(filter.to);
  return range.gte || range.lte ? range : undefined;
}

/** "4xx" → 400..499, "401" → 401, "none" → no answer at all (null on the platform, impossible inbound). */
function statusCondition(
  status: string | undefined,
): { gte: number; lte: number } | { equals: number } | "none" | undefined {
  if (!status) return undefined;
  if (status === "none") return "none";
  if (status.endsWith("xx")) {
    const base = Number(status[0]) * 100;
    return { gte: base, lte: base + 99 };
  }
  // equality, not a one-value range: only then can the (status, time) index also give the order
  return { equals: Number(status) };
}

const INBOUND = "di1";
const PLATFORM = "dp1";
/** The inbound log's cursor at a row (what a page's nextCursor holds). */
export const inboundCursor = (at: Date, id: number) => encodeCursor(INBOUND, [at.getTime(), id]);

const inboundSelect = {
  id: true,
  receivedAt: true,
  subscriptionId: true,
  deliveryId: true,
  eventType: true,
  jobId: true,
  status: true,
  reason: true,
  latencyMs: true,
} as const;

export async function listInbound(q: DeliveryQuery, now = new Date()): Promise<InboundPage> {
  const cursor = decodeKeyset(INBOUND, q.cursor, intId);
  const status = statusCondition(q.status);
  // the receiver always answers, so "none" matches nothing
  if (status === "none") return { items: [], nextCursor: null };
  const received = timeRange(q, now);
  const base: Prisma.InboundDeliveryWhereInput = {
    ...(q.subscriptionId ? { subscriptionId: q.subscriptionId } : {}),
    AND: [
      ...(received ? [{ receivedAt: received }] : []),
      ...(cursor
        ? [{ receivedAt: { lte: cursor.at } }, { OR: [{ receivedAt: { lt: cursor.at } }, { id: { lt: cursor.id } }] }]
        : []),
    ],
  };
  const page = (where: Prisma.InboundDeliveryWhereInput) =>
    db().inboundDelivery.findMany({
      where,
      orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
      take: q.limit + 1,
      select: inboundSelect,
    });
  const rows = status
    ? await perStatus(
        status,
        async (gt, lte) =>
          (
            await db().inboundDelivery.findFirst({
              where: { status: { gt, lte } },
              orderBy: { status: "asc" },
              select: { status: true },
            })
          )?.status,
        (code) => page({ ...base, status: code }),
        (r) => r.receivedAt,
        q.limit + 1,
      )
    : await page(base);
  const out = pageOf(INBOUND, rows, q.limit, (r) => r.receivedAt);
  return {
    items: out.items.map((r) => ({ ...r, receivedAt: r.receivedAt.toISOString() })),
    nextCursor: out.nextCursor,
  };
}

const platformSelect = {
  id: true,
  subscriptionId: true,
  webhookId: true,
  eventType: true,
  jobId: true,
  attemptNumber: true,
  status: true,
  httpStatus: true,
  deliveredAt: true,
  createdAt: true,
} as const;

export async function listPlatform(q: DeliveryQuery, now = new Date()): Promise<PlatformPage> {
  const cursor = decodeKeyset(PLATFORM, q.cursor, textId);
  const status = statusCondition(q.status);
  const created = timeRange(q, now);
  const base: Prisma.PlatformDeliveryWhereInput = {
    ...(q.subscriptionId ? await webhookCondition(q.subscriptionId) : {}),
    AND: [
      ...(created ? [{ createdAt: created }] : []),
      ...(cursor
        ? [{ createdAt: { lte: cursor.at } }, { OR: [{ createdAt: { lt: cursor.at } }, { id: { lt: cursor.id } }] }]
        : []),
    ],
  };
  const page = (where: Prisma.PlatformDeliveryWhereInput) =>
    db().platformDelivery.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: q.limit + 1,
      select: platformSelect,
    });
  const rows =
    status === "none"
      ? await page({ ...base, httpStatus: null })
      : status
        ? await perStatus(
            status,
            async (gt, lte) =>
              (
                await db().platformDelivery.findFirst({
                  where: { httpStatus: { gt, lte } },
                  orderBy: { httpStatus: "asc" },
                  select: { httpStatus: true },
                })
              )?.httpStatus ?? undefined,
            (code) => page({ ...base, httpStatus: code }),
            (r) => r.createdAt,
            q.limit + 1,
          )
        : await page(base);
  const out = pageOf(PLATFORM, rows, q.limit, (r) => r.createdAt);
  return {
    items: out.items.map((r) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      deliveredAt: r.deliveredAt?.toISOString() ?? null,
    })),
    nextCursor: out.nextCursor,
  };
}

/**
 * A status class ("4xx") is a range on the first column of the (status, time) index, and a range
 * there cannot hand back rows in time order: the database would sort every 2xx row (seconds at
 * millions of rows). Instead: find the few distinct codes in the class by index seeks, read one
 * ordered page per code (an equality, so the index gives the order), and merge.
 */
async function perStatus<R extends { id: number | string }>(
  status: { gte: number; lte: number } | { equals: number },
  nextCode: (gt: number, lte: number) => Promise<number | undefined>,
  pageFor: (code: number) => Promise<R[]>,
  at: (r: R) => Date,
  take: number,
): Promise<R[]> {
  if ("equals" in status) return pageFor(status.equals);
  const codes: number[] = [];
  for (let c = await nextCode(status.gte - 1, status.lte); c !== undefined; c = await nextCode(c, status.lte))
    codes.push(c);
  const pages = await Promise.all(codes.map(pageFor));
  return pages
    .flat()
    .sort((a, b) => at(b).getTime() - at(a).getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .slice(0, take);
}

// The mirror is indexed by the platform's webhook id; map Tally's subscription id onto it.
async function webhookCondition(subscriptionId: string): Promise<Prisma.PlatformDeliveryWhereInput> {
  const sub = await db().subscription.findUnique({ where: { id: subscriptionId }, select: { platformId: true } });
  return sub?.platformId ? { webhookId: sub.platformId } : { subscriptionId };
}

export type SubscriptionOption = { id: string; eventType: string };

/** What the Deliveries page needs on first render: the first page of each log and the subscriptions to filter by. */
export async function deliveriesPage(filter: DeliveryFilter, limit = 50) {
  const base = { ...filter, limit, cursor: undefined };
  const [inbound, platform, subscriptions] = await Promise.all([
    listInbound({ ...base, log: "inbound" }),
    listPlatform({ ...base, log: "platform" }),
    db().subscription.findMany({ select: { id: true, eventType: true }, orderBy: { eventType: "asc" } }),
  ]);
  return { inbound, platform, subscriptions: subscriptions satisfies SubscriptionOption[] };
}
