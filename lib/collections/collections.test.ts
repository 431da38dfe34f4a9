// Collections end to end in process with the real simulator over HTTP, the real queue and worker, on
// SQLite (and on PostgreSQL through vitest.postgres.config.mts): change classes exact for a known set
// (the simulator's knob contentChangeRate tells which URLs it changed), ignorePatterns turning a
// volatile timestamp into unchanged, url.changed forwarded once per new or changed URL, export
// ?changes=only; schedules: a missed tick runs once, overlap skip (recorded with its reason) and queue,
// and daylight-saving changes that neither skip nor double a day.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { metrics } from "@/lib/metrics/registry";
import { processJobItem } from "@/lib/jobs/process-job";
import { createDestination } from "@/lib/outbound/destinations";
import { forwardEventKind } from "@/lib/outbound/handler";
import { startSink, type Sink } from "@/lib/outbound/test-sink";
import { isTerminal } from "@/lib/platform";
import { flushApiCalls, resetPlatformClients } from "@/lib/platform/shared-client";
import { createRegistry, enqueue } from "@/lib/queue";
import { exportRunJsonl } from "@/lib/results/run-export";
import { getRun, parseValues, RUN_SUBMIT, type RunView } from "@/lib/runs";
import { API_KEY, startSim } from "@/lib/simulator/test-harness.test-util";
import { classifyRunKind, processJobKind, runSubmitKind } from "@/lib/worker/registry";
import { createWorker } from "@/lib/worker/worker";
import { createTestDb, type TestDb } from "@/test/db";
import {
  classifyRun,
  createCollection,
  diffUrl,
  getCollection,
  listChanges,
  nextTick,
  runCollectionNow,
  runDueCollections,
  updateCollection,
} from "./index";

let sim: Awaited<ReturnType<typeof startSim>>;
let t: TestDb;
let sink: Sink;
const registry = createRegistry([processJobKind(), runSubmitKind(), forwardEventKind(), classifyRunKind()]);

beforeAll(async () => {
  sim = await startSim();
  resetPlatformClients();
  t = await createTestDb({
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_API_RPS: "1000",
    TALLY_FORWARD_RETRY_INITIAL_MS: "10",
    TALLY_ALLOW_PRIVATE_DESTINATIONS: "127.0.0.1",
  });
  sink = await startSink();
  await createDestination({ url: sink.url, events: ["url.changed"] }, "test");
}, 30_000);
afterAll(async () => {
  await flushApiCalls().catch(() => undefined);
  await sink?.close();
  await sim?.close();
  await t?.cleanup();
});

const drain = () => createWorker({ registry, concurrency: 2, leaseMs: 10_000, owner: "test" }).drain();

/** Drives a run to its end (the platform settling its batch jobs, their webhooks), then its classification. */
async function runToEnd(runId: string): Promise<RunView> {
  for (let round = 0; round < 30; round++) {
    await drain();
    const run = await getRun(runId);
    if (run.state === "completed" || run.state === "cancelled") {
      await drain();
      return getRun(runId);
    }
    const open = await db().runChunk.findMany({ where: { runId, state: "submitted" }, select: { jobId: true } });
    for (const c of open) {
      if (!c.jobId) continue;
      for (let i = 0; i < 400; i++) {
        if (isTerminal((await sim.client().getJob("batch", c.jobId)).status)) break;
        await new Promise((r) => setTimeout(r, 15));
      }
      await enqueue(db(), processJobItem({ jobId: c.jobId, kind: "batch", source: "webhook" }));
    }
    await db().queueItem.updateMany({ where: { kind: RUN_SUBMIT, state: "ready" }, data: { availableAt: new Date() } });
  }
  throw new Error(`run ${runId} did not finish`);
}

const versionOf = async (url: string) =>
  z.object({ version: z.number() }).parse((await sim.control(`/_sim/content?url=${encodeURIComponent(url)}`)).body)
    .version;
const list = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `https://shop.example/${prefix}/${i}`);

async function allChanges(runId: string, change?: string) {
  const out: { url: string; change: string; resultId: number | null; previousResultId: number | null }[] = [];
  let cursor: string | undefined;
  do {
    const page = await listChanges(runId, { change, cursor, limit: 7 });
    out.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

/** Bodies this process's readers took from the body store: read in full, or from its cache of texts. */
const bodyReads = async () => (await metrics().bodyReads.get()).values.reduce((n, v) => n + v.value, 0);

describe("collections: what changed since the last run", () => {
  it("classifies new, changed, unchanged and gone exactly, forwards url.changed once per change, exports changes only", async () => {
    const first = list("c", 20);
    const c = await createCollection({ name: "prices", list: parseValues(first) }, "test");
    expect(c).toMatchObject({
      name: "prices",
      urlCount: 20,
      schedule: null,
      timezone: "UTC",
      nextRunAt: null,
      paused: false,
    });
    const run1 = await runToEnd((await runCollectionNow(c.id, "test")).runId);
    expect(run1.changes).toEqual({ new: 20, changed: 0, unchanged: 0, gone: 0 });
    expect(run1.trigger).toBe("manual");

    // Second run: 3 URLs dropped (gone), 4 added (new), and the simulator changes about half of the rest.
    await sim.control("/_sim/config", { contentChangeRate: 0.5 });
    const second = [...first.slice(3), ...list("d", 4)];
    await updateCollection(c.id, { list: parseValues(second) }, "test");
    const run2 = await runToEnd((await runCollectionNow(c.id, "test")).runId);
    await sim.control("/_sim/config", { contentChangeRate: 0 });

    const kept = first.slice(3);
    const changedUrls: string[] = [];
    for (const u of kept) if ((await versionOf(u)) === 1) changedUrls.push(u);
    expect(changedUrls.length).toBeGreaterThan(0);
    expect(changedUrls.length).toBeLessThan(kept.length);
    expect(run2.changes).toEqual({
      new: 4,
      changed: changedUrls.length,
      unchanged: kept.length - changedUrls.length,
      gone: 3,
    });
    const items = await allChanges(run2.id);
    expect(items).toHaveLength(4 + kept.length + 3);
    const by = (ch: string) =>
      items
        .filter((i) => i.change === ch)
        .map((i) => i.url)
        .sort();
    expect(by("changed")).toEqual([...changedUrls].sort());
    expect(by("new")).toEqual(list("d", 4).sort());
    expect(by("gone")).toEqual(first.slice(0, 3).sort());
    for (const i of items) {
      if (i.change === "gone") expect(i).toMatchObject({ resultId: null, previousResultId: expect.any(Number) });
      if (i.change === "new") expect(i).toMatchObject({ resultId: expect.any(Number), previousResultId: null });
      if (i.change === "changed") expect(i.resultId).not.toBe(i.previousResultId);
    }
    expect((await listChanges(run2.id, { change: "gone", limit: 100 })).items).toHaveLength(3);

    // The diff of a changed URL: removed and added lines, as data (the page renders them as text),
    // aligned on the judging pool's threads, not this one (issue 47).
    const diffsJudged = async () =>
      (await metrics().judgeDuration.get()).values.find(
        (v) => v.metricName?.endsWith("_count") && v.labels.kind === "diff",
      )?.value ?? 0;
    const judgedBefore = await diffsJudged();
    const d = await diffUrl(run2.id, changedUrls[0] ?? "");
    expect(await diffsJudged()).toBe(judgedBefore + 1);
    expect(d.change).toBe("changed");
    const shown = d.blocks.flatMap((b) => (b.kind === "change" ? b.lines : []));
    expect(shown.some((l) => l.kind === "added")).toBe(true);
    expect(shown.some((l) => l.kind === "removed")).toBe(true);
    expect(d.changes).toBeGreaterThan(0);

    // Export ?changes=only: exactly the new and changed URLs.
    const rows = (await new Response((await exportRunJsonl(run2.id, { changesOnly: true })).body).text())
      .trim()
      .split("\n")
      .map((l) => z.object({ url: z.string() }).parse(JSON.parse(l)).url);
    expect(rows.sort()).toEqual([...changedUrls, ...list("d", 4)].sort());

    // url.changed: once per new or changed URL of each run, even when a classification runs again.
    await classifyRun(run2.id);
    await drain();
    const expected = 20 + 4 + changedUrls.length;
    for (let i = 0; i < 200 && sink.requests.length < expected; i++) {
      await drain();
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 200));
    await drain();
    const bodies = sink.requests.map((r) =>
      z
        .object({
          type: z.string(),
          data: z.object({
            runId: z.string(),
            collectionId: z.string(),
            url: z.string(),
            change: z.string(),
            resultId: z.number().nullable(),
            previousResultId: z.number().nullable(),
          }),
        })
        .parse(JSON.parse(r.body)),
    );
    expect(bodies.every((b) => b.type === "url.changed" && b.data.collectionId === c.id)).toBe(true);
    const ofRun2 = bodies.filter((b) => b.data.runId === run2.id);
    expect(ofRun2.map((b) => b.data.url).sort()).toEqual([...changedUrls, ...list("d", 4)].sort());
    expect(new Set(sink.requests.map((r) => String(r.headers["webhook-id"]))).size).toBe(sink.requests.length);
    expect(sink.requests).toHaveLength(expected);
  }, 120_000);

  it("turns a volatile timestamp into unchanged with ignorePatterns (and not without)", async () => {
    const urls = ["https://news.example/volatile-front", "https://news.example/volatile-sport"];
    const bad = await createCollection(
      { name: "x", list: parseValues(urls), ignorePatterns: ["(unclosed"] },
      "test",
    ).catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: "bad_request" });
    // Patterns run on RE2: what it does not support (backreferences, lookaround) is refused on save,
    // naming the field and the pattern's place, and nothing is saved.
    for (const pattern of ["(a)\\1", "(?=x)y", "(?<!x)y"]) {
      const refused = await createCollection(
        { name: "refused pattern", list: parseValues(urls), ignorePatterns: ["Fetched at \\S+", pattern] },
        "test",
      ).catch((e: unknown) => e);
      expect(refused, pattern).toMatchObject({
        code: "bad_request",
        details: [{ path: "ignorePatterns.1", message: expect.stringMatching(/^ignorePatterns\[1\] is not RE2/) }],
        message: expect.stringMatching(/^ignorePatterns\[1\] is not RE2 syntax \(.+\); backreferences and lookaround/),
      });
    }
    expect(await db().collection.count({ where: { name: "refused pattern" } })).toBe(0);
    const withRule = await createCollection(
      { name: "news, ignoring the clock", list: parseValues(urls), ignorePatterns: ["Fetched at \\S+"] },
      "test",
    );
    const without = await createCollection({ name: "news", list: parseValues(urls) }, "test");
    for (const c of [withRule, without]) {
      await runToEnd((await runCollectionNow(c.id, "test")).runId);
      await new Promise((r) => setTimeout(r, 5)); // the clock moves between servings
    }
    const again = await runToEnd((await runCollectionNow(withRule.id, "test")).runId);
    const againWithout = await runToEnd((await runCollectionNow(without.id, "test")).runId);
    expect(again.changes).toEqual({ new: 0, changed: 0, unchanged: 2, gone: 0 });
    expect(againWithout.changes).toEqual({ new: 0, changed: 2, unchanged: 0, gone: 0 });
  }, 120_000);
});

describe("collections: schedules", () => {
  it("refuses every problem of a save at once, each by its field (a bad cron is not hidden behind a bad zone); nothing saved", async () => {
    const before = await db().collection.count();
    const refused = await createCollection(
      {
        name: "",
        list: parseValues(["https://shop.example/a", "not a url"]),
        schedule: "61 * * * *",
        timezone: "Mars/Olympus",
        ignorePatterns: ["ok", "(a)\\1"],
      },
      "test",
    ).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "bad_request" });
    const details = (refused as { details: { path: string; message: string }[] }).details;
    expect(details.map((d) => d.path)).toEqual(["name", "urls", "timezone", "schedule", "ignorePatterns.1"]);
    expect(details.find((d) => d.path === "urls")?.message).toMatch(/1 invalid line .*line 2/);
    expect(details.find((d) => d.path === "schedule")?.message).toMatch(/minute|61/);
    expect(await db().collection.count()).toBe(before);
  });

  it("runs a tick missed while down once, skips a tick while a run is going (with the reason), or queues it", async () => {
    const c = await createCollection(
      { name: "nightly", list: parseValues(list("s", 3)), schedule: "0 2 * * *", timezone: "Asia/Jakarta" },
      "test",
    );
    expect(new Date(c.nextRunAt ?? 0).getTime()).toBeGreaterThan(Date.now());
    // Down for three days: three ticks missed.
    await db().collection.update({ where: { id: c.id }, data: { nextRunAt: new Date(Date.now() - 3 * 86_400_000) } });
    const fired = await runDueCollections();
    expect(fired.filter((f) => f.collectionId === c.id)).toEqual([expect.objectContaining({ outcome: "started" })]);
    expect(await runDueCollections()).toEqual([]);
    const after = await getCollection(c.id);
    expect(new Date(after.nextRunAt ?? 0).getTime()).toBeGreaterThan(Date.now());
    expect(after.runs).toHaveLength(1);
    expect(after.runs[0]?.trigger).toBe("schedule");
    const runId = after.runs[0]?.id ?? "";

    // A tick while that run is going: skipped (overlap skip, the default), with the reason.
    await db().collection.update({ where: { id: c.id }, data: { nextRunAt: new Date(Date.now() - 1000) } });
    expect(await runDueCollections()).toEqual([expect.objectContaining({ outcome: "skipped" })]);
    const skipped = await getCollection(c.id);
    expect(skipped.runs).toHaveLength(1);
    expect(skipped.ticks[0]).toMatchObject({ outcome: "skipped", reason: expect.stringContaining(runId) });
    await expect(runCollectionNow(c.id, "test")).rejects.toMatchObject({ code: "conflict" });

    // overlap queue: the tick waits, and starts once the run ends.
    await updateCollection(c.id, { overlap: "queue" }, "test");
    await db().collection.update({ where: { id: c.id }, data: { nextRunAt: new Date(Date.now() - 1000) } });
    expect(await runDueCollections()).toEqual([expect.objectContaining({ outcome: "queued" })]);
    expect(await runDueCollections()).toEqual([]);
    await runToEnd(runId);
    const started = await runDueCollections();
    expect(started).toEqual([expect.objectContaining({ outcome: "started", runId: expect.any(String) })]);
    const queued = await getCollection(c.id);
    expect(queued.runs).toHaveLength(2);
    expect(queued.queuedFor).toBeNull();
    expect(queued.ticks.map((x) => x.outcome)).toEqual(["started", "skipped", "started"]);
    await runToEnd(started[0]?.runId ?? "");
  }, 120_000);

  it("neither skips nor doubles a day across daylight-saving changes (America/New_York)", async () => {
    const local = (d: Date) =>
      d.toLocaleString("en-CA", { timeZone: "America/New_York", hour12: false }).replace(",", "");
    for (const [expr, from, days] of [
      ["30 2 * * *", "2027-03-12T12:00:00Z", ["2027-03-13 02:30:00", "2027-03-14 03:00:00", "2027-03-15 02:30:00"]],
      ["30 1 * * *", "2027-11-05T12:00:00Z", ["2027-11-06 01:30:00", "2027-11-07 01:30:00", "2027-11-08 01:30:00"]],
    ] as const) {
      const c = await createCollection(
        { name: `dst ${expr}`, list: parseValues(list("dst", 2)), schedule: expr, timezone: "America/New_York" },
        "test",
      );
      await db().collection.update({
        where: { id: c.id },
        data: { nextRunAt: nextTick(expr, "America/New_York", new Date(from)) },
      });
      const seen: string[] = [];
      for (let i = 0; i < 3; i++) {
        const row = await db().collection.findUniqueOrThrow({ where: { id: c.id } });
        const at = new Date((row.nextRunAt ?? new Date()).getTime() + 1000);
        for (const f of await runDueCollections(at))
          if (f.collectionId === c.id) seen.push(local(new Date(f.scheduledFor)));
        // A second pass in the same minute finds nothing due.
        expect((await runDueCollections(at)).filter((f) => f.collectionId === c.id)).toEqual([]);
      }
      expect(seen).toEqual(days);
      await db().collection.update({ where: { id: c.id }, data: { paused: true } });
    }
  }, 60_000);
});

// Last: its url.changed events reach the shared sink after the tests above have counted theirs.
describe("collections over the body store", () => {
  it("with page bodies in the body store: the same classes, the diff readable, an unchanged body not read again", async () => {
    await sim.control("/_sim/config", { bodyBytes: [20_000, 30_000] });
    try {
      const urls = list("big", 10);
      const c = await createCollection({ name: "big pages", list: parseValues(urls) }, "test");
      const run1 = await runToEnd((await runCollectionNow(c.id, "test")).runId);
      expect(run1.changes).toEqual({ new: 10, changed: 0, unchanged: 0, gone: 0 });
      const rows = await db().result.findMany({ where: { url: { in: urls } } });
      expect(rows.length).toBe(10);
      expect(rows.every((r) => r.markdown === null && r.markdownKey !== null)).toBe(true);

      const before = await bodyReads();
      await sim.control("/_sim/config", { contentChangeRate: 0.5 });
      const run2 = await runToEnd((await runCollectionNow(c.id, "test")).runId);
      await sim.control("/_sim/config", { contentChangeRate: 0 });
      const changed: string[] = [];
      for (const u of urls) if ((await versionOf(u)) === 1) changed.push(u);
      expect(changed.length).toBeGreaterThan(0);
      expect(run2.changes).toEqual({ new: 0, changed: changed.length, unchanged: 10 - changed.length, gone: 0 });
      // Fingerprints: only the changed pages' markdown was read from the store; the unchanged pages'
      // prints were known by their keys.
      expect((await bodyReads()) - before).toBe(changed.length);

      const d = await diffUrl(run2.id, changed[0]);
      expect(d.bodyErrors).toEqual([]);
      expect(d.blocks.some((b) => b.kind === "change" && b.lines.some((l) => l.kind !== "same"))).toBe(true);
    } finally {
      await sim.control("/_sim/config", { bodyBytes: [0, 0], contentChangeRate: 0 });
    }
  });
});
