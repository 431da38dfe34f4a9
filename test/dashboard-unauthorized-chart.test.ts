// The 401 chart: one-minute buckets over the window, one series per subscription (plus the shared
// URL's unknowns), rotation markers inside the window, and the spike that raises the banner.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ROWS, unauthorizedChart } from "@/lib/subscriptions/unauthorized-chart";
import { db } from "@/lib/db";
import { createTestDb, type TestDb } from "./db";

let t: TestDb;
const NOW = new Date("2026-06-01T12:00:30.000Z");
const MIN = 60_000;
const at = (minutesAgo: number, seconds = 0) => new Date(NOW.getTime() - minutesAgo * MIN + seconds * 1000);

function row(subscriptionId: string | null, status: number, receivedAt: Date) {
  return {
    subscriptionId,
    status,
    receivedAt,
    latencyMs: 1,
    bodyBytes: 0,
    reason: status === 401 ? "bad signature" : "accepted",
  };
}

beforeAll(async () => {
  t = await createTestDb();
  await db().subscription.createMany({
    data: [
      {
        id: "sub-extract",
        eventType: "extract_completed",
        description: "shop pages",
        url: "http://x/e",
        rotatedAt: at(4),
      },
      { id: "sub-batch", eventType: "batch_completed", url: "http://x/b" },
      { id: "sub-crawl", eventType: "crawl_completed", url: "http://x/c" },
    ],
  });
  await db().secretRotation.createMany({
    data: [
      { subscriptionId: "sub-extract", source: "rotated", actor: "operator", at: at(4) },
      { subscriptionId: "sub-batch", source: "set_elsewhere", actor: "operator", at: at(40) },
      { subscriptionId: "sub-batch", source: "rotated", actor: "cron", at: at(90) }, // outside the hour
    ],
  });
  await db().inboundDelivery.createMany({
    data: [
      // sub-extract: accepted until the rotation 4 minutes ago, then a run of 401s: a spike
      row("sub-extract", 200, at(6)),
      row("sub-extract", 200, at(4, -10)),
      row("sub-extract", 401, at(3, -20)),
      row("sub-extract", 401, at(3, -5)),
      row("sub-extract", 401, at(2)),
      row("sub-extract", 401, at(1)),
      row("sub-extract", 401, at(0, -1)),
      // sub-batch: two 401s long ago and two recently: below the spike threshold
      row("sub-batch", 401, at(45)),
      row("sub-batch", 401, at(45, 10)),
      row("sub-batch", 401, at(2)),
      row("sub-batch", 401, at(1)),
      // the shared URL with no subscription
      row(null, 401, at(10)),
      // outside the window, and other statuses: not counted
      row("sub-batch", 401, at(61)),
      row("sub-crawl", 400, at(1)),
      row("sub-crawl", 200, at(1)),
    ],
  });
});
afterAll(async () => t?.cleanup());

describe("401s per minute", () => {
  it("buckets the last hour minute by minute, per subscription", async () => {
    const chart = await unauthorizedChart({ now: NOW });
    expect(chart.points).toHaveLength(60);
    const first = chart.points[0];
    const last = chart.points[59];
    expect(last?.t).toBe(Date.parse("2026-06-01T12:00:00.000Z"));
    expect(first?.t).toBe(Date.parse("2026-06-01T11:01:00.000Z"));
    expect(chart.from).toBe("2026-06-01T11:01:00.000Z");

    const count = (key: string) => chart.points.reduce((n, p) => n + (p.counts[key] ?? 0), 0);
    expect(count("sub-extract")).toBe(5);
    expect(count("sub-batch")).toBe(4);
    expect(count("unknown")).toBe(1);
    expect(count("sub-crawl")).toBe(0);

    const byMinute = (d: Date) => chart.points.find((p) => p.t === Math.floor(d.getTime() / MIN) * MIN)?.counts ?? {};
    expect(byMinute(at(3, -20))).toEqual({ "sub-extract": 2 });
    expect(byMinute(at(45))).toEqual({ "sub-batch": 2 });
    expect(byMinute(at(2))).toEqual({ "sub-extract": 1, "sub-batch": 1 });
  });

  it("lists every subscription as a series, and the shared URL only when it has 401s", async () => {
    const chart = await unauthorizedChart({ now: NOW });
    expect(chart.series).toEqual([
      { key: "sub-batch", label: "batch_completed", total: 4 },
      { key: "sub-crawl", label: "crawl_completed", total: 0 },
      { key: "sub-extract", label: "extract_completed", total: 5 },
      { key: "unknown", label: "no subscription (shared URL)", total: 1 },
    ]);
    expect(chart.truncated).toBe(false);
  });

  it("marks the rotations inside the window", async () => {
    const chart = await unauthorizedChart({ now: NOW });
    expect(chart.markers).toEqual([
      { subscriptionId: "sub-batch", at: at(40).toISOString(), source: "set_elsewhere", actor: "operator" },
      { subscriptionId: "sub-extract", at: at(4).toISOString(), source: "rotated", actor: "operator" },
    ]);
  });

  it("reports a spike of 3 or more 401s in 5 minutes, from the first 401 after the last accepted delivery", async () => {
    const chart = await unauthorizedChart({ now: NOW });
    expect(chart.spikes).toEqual([
      {
        subscriptionId: "sub-extract",
        eventType: "extract_completed",
        description: "shop pages",
        url: "http://x/e",
        recent: 5,
        since: at(3, -20).toISOString(),
        lastRotationAt: at(4).toISOString(),
      },
    ]);
  });

  it("ends the spike when deliveries are accepted again, or when a rotation came after the last 401", async () => {
    const accepted = await db().inboundDelivery.create({ data: row("sub-extract", 200, at(0, -0.5)) });
    expect((await unauthorizedChart({ now: NOW })).spikes).toEqual([]);
    await db().inboundDelivery.delete({ where: { id: accepted.id } });

    await db().subscription.update({ where: { id: "sub-extract" }, data: { rotatedAt: at(0, -0.5) } });
    expect((await unauthorizedChart({ now: NOW })).spikes).toEqual([]);
    await db().subscription.update({ where: { id: "sub-extract" }, data: { rotatedAt: at(4) } });
    expect((await unauthorizedChart({ now: NOW })).spikes).toHaveLength(1);
  });

  it("sees the recovery: no spike once the 401s are older than five minutes", async () => {
    const later = new Date(NOW.getTime() + 10 * MIN);
    const chart = await unauthorizedChart({ now: later });
    expect(chart.spikes).toEqual([]);
    expect(chart.points.at(-1)?.counts).toEqual({});
  });

  it("covers a shorter window when asked", async () => {
    const chart = await unauthorizedChart({ now: NOW, minutes: 5 });
    expect(chart.points).toHaveLength(5);
    expect(chart.series.find((s) => s.key === "sub-batch")?.total).toBe(2);
    expect(chart.markers.map((m) => m.subscriptionId)).toEqual(["sub-extract"]);
  });
});

describe("a flood of 401s", () => {
  // Writing the 20,500 rows through Prisma's createMany takes ~20 s on a busy two-core machine (either store).
  it(
    "reads at most MAX_ROWS, keeps the newest minutes exact and says the chart undercounts",
    { timeout: 120_000 },
    async () => {
      await db().inboundDelivery.deleteMany({});
      // MAX_ROWS + 500 refusals over the last ten minutes, newest first in time
      const total = MAX_ROWS + 500;
      const step = (10 * MIN) / total;
      await db().inboundDelivery.createMany({
        data: Array.from({ length: total }, (_, i) => row(null, 401, new Date(NOW.getTime() - 1000 - i * step))),
      });
      const chart = await unauthorizedChart({ now: NOW, minutes: 15 });
      expect(chart.truncated).toBe(true);
      expect(chart.series.find((s) => s.key === "unknown")?.total).toBe(MAX_ROWS);
      const newestMinute = chart.points.at(-1)?.counts.unknown ?? 0;
      const expectedNewest = Array.from({ length: total }, (_, i) => NOW.getTime() - 1000 - i * step).filter(
        (t) => t >= Date.parse("2026-06-01T12:00:00.000Z"),
      ).length;
      expect(newestMinute).toBe(expectedNewest);
    },
  );
});
