// The sweep of unreferenced bodies (issue 40), on both backends (a folder; an s3rver in its own
// process) and both databases: a crash between a body's put and its row's commit leaves only an
// object no row names, which the sweep removes once past the grace and not before; a sweep racing
// stores never removes a body a committed row names (a put that finds its body kept makes it young
// again); two sweeps at once are one.
import { existsSync, readFileSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { Conflict } from "@/lib/errors";
import { singleFlight } from "@/lib/scheduling";
import { keepBodies } from "@/lib/jobs/keep-bodies";
import { resolveRow } from "@/lib/results";
import { createTestDb, type TestDb } from "@/test/db";
import { startS3Server, type S3Server } from "@/test/s3";
import { scrapeMetrics } from "@/lib/metrics/scrape";
import { settingsView } from "@/lib/settings";
import { bodyStore, sweepBodies, sweepBodiesOnce } from ".";

let s3: S3Server | undefined;

async function startS3(): Promise<void> {
  s3 = await startS3Server("tally-sweep");
  // The standard AWS variables, as an operator sets them (openBodyStore leaves them to the SDK).
  s3.useEnv();
}

afterAll(() => s3?.stop());

/** A page-like body of about `kb` KiB, different per `seed`. */
const page = (seed: string, kb = 24) =>
  Array.from({ length: kb * 16 }, (_, i) => `${seed} paragraph ${i} of a stored page with words.`).join("\n");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let rowSeq = 0;

/** The commit of a store: a Result row naming the kept bodies. */
async function commit(kept: Awaited<ReturnType<typeof keepBodies>>[number]): Promise<number> {
  const row = await db().result.create({
    data: {
      jobId: "sweep-job",
      itemKey: String(rowSeq++),
      format: "markdown",
      markdown: kept.markdown,
      markdownKey: kept.markdownKey,
      markdownCodec: kept.markdownCodec,
      markdownSize: kept.markdownSize,
    },
  });
  return row.id;
}

async function readable(id: number): Promise<string | null> {
  const r = await db().result.findUniqueOrThrow({ where: { id } });
  const got = await resolveRow(r, `result ${id}`);
  return got.bodyError;
}

describe.each(["file", "s3"] as const)("the sweep on the %s store", (backend) => {
  let t: TestDb;
  // S3 keeps times to the second: a grace of seconds is what a test can wait out.
  const GRACE = 2_500;

  beforeAll(async () => {
    if (backend === "s3") await startS3();
    t = await createTestDb(
      backend === "s3" ? { TALLY_BODY_STORE: `s3://tally-sweep/t${Date.now()}/bodies?forcePathStyle=true` } : {},
    );
    await bodyStore().check();
  });
  afterAll(() => t?.cleanup());

  it("a crash between the put and the commit leaves an orphan the sweep removes past the grace only", async () => {
    const [orphan] = await keepBodies([{ markdown: page("orphan"), html: null }]);
    const [kept] = await keepBodies([{ markdown: page("kept"), html: null }]);
    // The crash: the orphan's row never commits; the other's does.
    const keptId = await commit(kept);
    expect(await bodyStore().has(orphan.markdownKey!)).toBe(true);

    const early = await sweepBodies({ graceMs: GRACE });
    expect(early.deleted).toBe(0);
    expect(await bodyStore().has(orphan.markdownKey!)).toBe(true);

    await sleep(GRACE + 1_200);
    const late = await sweepBodies({ graceMs: GRACE });
    expect(late).toMatchObject({ deleted: 1, referenced: 1 });
    expect(late.bytesDeleted).toBeGreaterThan(0);
    expect(await bodyStore().has(orphan.markdownKey!)).toBe(false);
    expect(await bodyStore().has(kept.markdownKey!)).toBe(true);
    expect(await readable(keptId)).toBeNull();
  });

  it("a store that finds its body kept makes it young again: a sweep before its commit leaves it", async () => {
    // An orphan past the grace, which a store is about to name again (the same page fetched again).
    const body = page("again");
    await keepBodies([{ markdown: body, html: null }]);
    await sleep(GRACE + 1_200);
    const [inFlight] = await keepBodies([{ markdown: body, html: null }]);
    const during = await sweepBodies({ graceMs: GRACE });
    expect(during.deleted).toBe(0);
    const id = await commit(inFlight);
    await sleep(GRACE + 1_200);
    await sweepBodies({ graceMs: GRACE });
    expect(await readable(id)).toBeNull();
  });

  it("sweeps racing stores never remove a body a committed row names", async () => {
    // Old orphans that the stores will name again, and new bodies; sweeps run all the while.
    const old = Array.from({ length: 8 }, (_, i) => page(`race-old-${i}`, 8));
    await keepBodies(old.map((markdown) => ({ markdown, html: null })));
    await sleep(GRACE + 1_200);
    const ids: number[] = [];
    let storing = true;
    const stores = (async () => {
      for (let i = 0; i < 16; i++) {
        const markdown = i % 2 === 0 ? old[i / 2] : page(`race-new-${i}`, 8);
        const [k] = await keepBodies([{ markdown, html: null }]);
        await sleep(50);
        ids.push(await commit(k));
      }
      storing = false;
    })();
    const sweeps = (async () => {
      while (storing) await sweepBodies({ graceMs: GRACE });
    })();
    await Promise.all([stores, sweeps]);
    for (const id of ids) expect(await readable(id)).toBeNull();
  });

  it("counts the store as it leaves it: objects, stored bytes and what sharing saves, in Settings and the gauges", async () => {
    // One page named by three rows (the same page stored by three jobs), and one named once.
    const [shared] = await keepBodies([{ markdown: page("census-shared"), html: null }]);
    for (let i = 0; i < 3; i++) await commit(shared);
    await commit((await keepBodies([{ markdown: page("census-once"), html: null }]))[0]);
    await sweepBodies({ graceMs: GRACE });

    let objects = 0;
    let storedBytes = 0;
    for await (const o of bodyStore().list()) {
      objects++;
      storedBytes += o.storedSize;
    }
    const rows = await db().result.findMany({ where: { markdownKey: { not: null } } });
    const distinct = new Map(rows.map((r) => [r.markdownKey!, r.markdownSize ?? 0]));
    const rowsBytes = rows.reduce((sum, r) => sum + (r.markdownSize ?? 0), 0);
    const distinctBytes = [...distinct.values()].reduce((a, b) => a + b, 0);
    expect(rowsBytes - distinctBytes).toBeGreaterThanOrEqual(2 * (shared.markdownSize ?? 0));

    const { bodyStore: view } = await settingsView();
    expect(view.census).toMatchObject({ objects, storedBytes, referenced: distinct.size, distinctBytes, rowsBytes });
    const text = (await scrapeMetrics()).body;
    expect(text).toMatch(new RegExp(`^tally_body_store_objects ${objects}$`, "m"));
    expect(text).toMatch(new RegExp(`^tally_body_store_bytes ${storedBytes}$`, "m"));
    expect(text).toMatch(new RegExp(`^tally_body_store_shared_saved_bytes ${rowsBytes - distinctBytes}$`, "m"));
  });

  it.runIf(backend === "file")(
    "removes temporary files of crashed writes past the grace, keeps fresh ones, puts back a crashed sweep's object",
    async () => {
      const root = bodyStore().location.slice("file:".length);
      const [kept] = await keepBodies([{ markdown: page("temp-neighbour"), html: null }]);
      const id = await commit(kept);
      const key = kept.markdownKey!;
      const folder = path.join(root, key.slice(0, 2), key.slice(2, 4));
      const old = new Date(Date.now() - GRACE - 60_000);
      // A write that crashed before its rename, long ago; one in progress now; a crashed check's probe.
      const stale = path.join(folder, `.tmp-${"e".repeat(64)}.br-0123456789ab`);
      const fresh = path.join(folder, `.tmp-${"f".repeat(64)}.br-ba9876543210`);
      const probe = path.join(root, ".tmp-check-0123456789ab");
      for (const f of [stale, fresh, probe]) writeFileSync(f, "half a body");
      utimesSync(stale, old, old);
      utimesSync(probe, old, old);
      // A sweep that crashed with a named object moved aside (and touched by a put meanwhile: young by
      // its time, but left for long enough): put back, not removed.
      const objectFile = path.join(folder, `${key}.br`);
      const aside = path.join(folder, `.tmp-sweep-${key}.br-00aa11bb22cc`);
      const bytes = readFileSync(objectFile);
      renameSync(objectFile, aside);
      utimesSync(aside, old, old);

      const report = await sweepBodies({ graceMs: GRACE });
      expect(report.temporariesDeleted).toBe(2);
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(probe)).toBe(false);
      expect(existsSync(fresh)).toBe(true);
      expect(existsSync(aside)).toBe(false);
      expect(readFileSync(objectFile)).toEqual(bytes);
      expect(await readable(id)).toBeNull();
      // Once past the grace, the fresh one goes too.
      const later = await sweepBodies({ graceMs: GRACE, now: new Date(Date.now() + GRACE + 60_000) });
      expect(later.temporariesDeleted).toBe(1);
      expect(existsSync(fresh)).toBe(false);
      expect(await readable(id)).toBeNull();
    },
  );

  // Single-flight is the database's lease, the same whatever the backend; once per file, as
  // lib/scheduling remembers the lease rows it made (of the first database) for the process.
  it.runIf(backend === "file")("two sweeps at once: one runs, the other is refused with Conflict", async () => {
    // The first holds the sweep's lease until the second has been refused: a sweep of a small store
    // can end before a second one starts, so racing two real sweeps proves nothing either way.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    let holding = () => {};
    const leased = new Promise<void>((r) => (holding = r));
    const first = singleFlight("cron:bodies-sweep", 60_000, () => {
      holding();
      return held;
    });
    await leased;
    await expect(sweepBodiesOnce()).rejects.toBeInstanceOf(Conflict);
    release();
    await first;
    await expect(sweepBodiesOnce()).resolves.toMatchObject({ unit: "bodies-sweep" });
  });
});
