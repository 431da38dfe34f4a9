// The Deliveries page's lists: every filter, and keyset pages that neither skip nor repeat rows,
// also across ties in time and across the per-code merge of a status class.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliveryQuerySchema, type DeliveryQuery } from "@/lib/webhooks/deliveries-contracts";
import { deliveriesPage, listInbound, listPlatform } from "@/lib/webhooks/deliveries-list";
import { TallyError } from "@/lib/errors";
import { db } from "@/lib/db";
import { createTestDb, type TestDb } from "./db";

let t: TestDb;
const NOW = new Date("2026-06-01T12:00:00.000Z");
const minutesAgo = (m: number) => new Date(NOW.getTime() - m * 60_000);
const STATUSES = [200, 200, 200, 401, 200, 400, 200, 413, 503, 200, 401, 200];
const SUBS = ["sub-a", "sub-b", null] as const;

beforeAll(async () => {
  t = await createTestDb();
  await db().subscription.createMany({
    data: [
      { id: "sub-a", eventType: "extract_completed", url: "http://x/a", platformId: "wh-a" },
      { id: "sub-b", eventType: "batch_completed", url: "http://x/b", platformId: "wh-b" },
    ],
  });
  // 120 rows over 3 days; every fifth row shares its time with the next, to exercise ties
  await db().inboundDelivery.createMany({
    data: Array.from({ length: 120 }, (_, i) => ({
      receivedAt: minutesAgo(Math.floor(i / 2) * 60 + (i % 5 === 0 ? 0 : i % 2)),
      subscriptionId: SUBS[i % 3],
      eventType: "extract_completed",
      jobId: `job-${i}`,
      status: STATUSES[i % STATUSES.length] ?? 200,
      reason: "r",
      latencyMs: i,
      bodyBytes: 10,
    })),
  });
  await db().platformDelivery.createMany({
    data: Array.from({ length: 60 }, (_, i) => ({
      id: `pd-${String(i).padStart(3, "0")}`,
      webhookId: i % 2 ? "wh-a" : "wh-b",
      subscriptionId: null,
      jobId: `job-${i}`,
      attemptNumber: (i % 3) + 1,
      status: i % 4 === 0 ? "failed" : "delivered",
      httpStatus: i % 4 === 0 ? (i % 8 === 0 ? null : 401) : 200,
      createdAt: minutesAgo(Math.floor(i / 3) * 30),
    })),
  });
});
afterAll(async () => t?.cleanup());

const q = (input: Record<string, unknown> = {}): DeliveryQuery => deliveryQuerySchema.parse(input);

async function walk<R extends { id: number | string }>(
  list: (q: DeliveryQuery) => Promise<{ items: R[]; nextCursor: string | null }>,
  query: DeliveryQuery,
) {
  const seen: R[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const page = await list({ ...query, cursor });
    seen.push(...page.items);
    if (!page.nextCursor) return seen;
    cursor = page.nextCursor;
  }
  throw new Error("pagination did not end");
}

const allInbound = async () =>
  (await db().inboundDelivery.findMany({ orderBy: [{ receivedAt: "desc" }, { id: "desc" }] })).map((r) => ({
    ...r,
    receivedAt: r.receivedAt.toISOString(),
  }));

describe("inbound log", () => {
  it("pages through everything newest first, without gaps or repeats, across ties in time", async () => {
    const rows = await walk((x) => listInbound(x, NOW), q({ limit: 7 }));
    const expected = await allInbound();
    expect(rows.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    expect(new Set(rows.map((r) => r.id)).size).toBe(120);
  });

  it("filters by an exact status code", async () => {
    const rows = await walk((x) => listInbound(x, NOW), q({ status: "401", limit: 5 }));
    expect(rows.length).toBe((await allInbound()).filter((r) => r.status === 401).length);
    expect(rows.every((r) => r.status === 401)).toBe(true);
  });

  it("filters by a status class, merging the codes in time order page by page", async () => {
    const rows = await walk((x) => listInbound(x, NOW), q({ status: "4xx", limit: 4 }));
    const expected = (await allInbound()).filter((r) => r.status >= 400 && r.status < 500);
    expect(new Set(expected.map((r) => r.status))).toEqual(new Set([400, 401, 413]));
    expect(rows.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    expect((await listInbound(q({ status: "3xx" }), NOW)).items).toEqual([]);
    expect((await listInbound(q({ status: "none" }), NOW)).items).toEqual([]);
  });

  it("filters by subscription and time range", async () => {
    const bySub = await walk((x) => listInbound(x, NOW), q({ subscriptionId: "sub-b", limit: 9 }));
    expect(bySub.length).toBe(40);
    expect(bySub.every((r) => r.subscriptionId === "sub-b")).toBe(true);

    const lastHour = await listInbound(q({ window: "1h" }), NOW);
    expect(lastHour.items.length).toBeGreaterThan(0);
    expect(lastHour.items.every((r) => Date.parse(r.receivedAt) >= minutesAgo(60).getTime())).toBe(true);

    const from = minutesAgo(600).toISOString();
    const to = minutesAgo(300).toISOString();
    const between = await walk((x) => listInbound(x, NOW), q({ from, to, status: "2xx", limit: 3 }));
    const expected = (await allInbound()).filter((r) => r.receivedAt >= from && r.receivedAt <= to && r.status === 200);
    expect(between.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  });

  it("refuses a forged cursor with a reason", async () => {
    const err = await listInbound(q({ cursor: "not-a-cursor" }), NOW).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TallyError);
    expect(err).toMatchObject({ code: "bad_request", message: expect.stringContaining("cursor") });
  });

  it("rejects status filters that are not a class, a code or none", () => {
    expect(deliveryQuerySchema.safeParse({ status: "4x" }).success).toBe(false);
    expect(deliveryQuerySchema.safeParse({ status: "1; DROP" }).success).toBe(false);
    expect(deliveryQuerySchema.safeParse({ from: "yesterday" }).success).toBe(false);
  });
});

describe("platform log", () => {
  it("pages newest first and filters unanswered attempts", async () => {
    const rows = await walk((x) => listPlatform(x, NOW), q({ log: "platform", limit: 8 }));
    expect(rows.length).toBe(60);
    const none = await walk((x) => listPlatform(x, NOW), q({ log: "platform", status: "none", limit: 4 }));
    expect(none.length).toBe(8);
    expect(none.every((r) => r.httpStatus === null)).toBe(true);
    const failed = await walk((x) => listPlatform(x, NOW), q({ log: "platform", status: "4xx", limit: 4 }));
    expect(failed.length).toBe(7);
    expect(failed.every((r) => r.httpStatus === 401 && r.status === "failed")).toBe(true);
  });

  it("filters by subscription through the platform's webhook id", async () => {
    const rows = await walk((x) => listPlatform(x, NOW), q({ log: "platform", subscriptionId: "sub-a", limit: 10 }));
    expect(rows.length).toBe(30);
    expect(rows.every((r) => r.webhookId === "wh-a")).toBe(true);
  });

  it("the page's first render holds both logs and the subscriptions", async () => {
    const page = await deliveriesPage({ status: "401" }, 5);
    expect(page.inbound.items.length).toBe(5);
    expect(page.platform.items.every((r) => r.httpStatus === 401)).toBe(true);
    expect(page.subscriptions.map((s) => s.id).sort()).toEqual(["sub-a", "sub-b"]);
  });
});
