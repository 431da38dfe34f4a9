// The sweep of unreferenced bodies (issue 40), on both backends (a folder; an s3rver in its own
// process) and both databases: a crash between a body's put and its row's commit leaves only an
// object no row names, which the sweep removes once past the grace and not before; a sweep racing
// stores never removes a body a committed row names (a put that finds its body kept makes it young
// again), on S3 also when the put's touch falls between the sweep's last look and its delete (a
// proxy holds the DELETE); two sweeps at once are one.
import { existsSync, readFileSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
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

/**
 * An HTTP proxy on loopback in front of the S3 server that can hold DELETE requests until released,
 * to put a put's requests exactly between the sweep's last look (HEAD) and its delete.
 */
async function holdingProxy(target: string) {
  const to = new URL(target);
  const seen: string[] = [];
  let holdDeletes = false;
  const held: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const go = () => {
      seen.push(`${req.method} ${req.headers["x-amz-copy-source"] ? "copy" : ""}`.trim());
      const out = http.request(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on("error", () => res.destroy());
      req.pipe(out);
    };
    if (req.method === "DELETE" && holdDeletes) held.push(go);
    else go();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    held,
    hold: () => void (holdDeletes = true),
    release() {
      holdDeletes = false;
      for (const go of held.splice(0)) go();
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe("the S3 sweep and a put of the same body between its last look and its delete", () => {
  let t: TestDb;
  let server: S3Server;
  let proxy: Awaited<ReturnType<typeof holdingProxy>>;

  beforeAll(async () => {
    server = await startS3Server("tally-sweep-race");
    proxy = await holdingProxy(server.endpoint);
    server.useEnv(proxy.endpoint);
    t = await createTestDb({ TALLY_BODY_STORE: `s3://tally-sweep-race/r${Date.now()}/bodies?forcePathStyle=true` });
  });
  afterAll(async () => {
    await t?.cleanup();
    await proxy?.close();
    await server?.stop();
  });

  it("the put waits for the sweep's delete and writes the body again: its row names a body that is there", async () => {
    const body = page("race-between");
    const [orphan] = await keepBodies([{ markdown: body, html: null }]);
    const key = orphan.markdownKey!;
    // Past the grace (S3 keeps times to the second).
    await sleep(2_200);
    proxy.hold();
    const sweep = sweepBodies({ graceMs: 1_000 });
    for (let i = 0; i < 200 && proxy.held.length === 0; i++) await sleep(25);
    expect(proxy.held, "the sweep looked at the orphan and sent its DELETE").toHaveLength(1);

    // The same page stored again now: its put finds the object (HEAD), makes it young (a self-copy).
    const from = proxy.seen.length;
    let putDone = false;
    const put = keepBodies([{ markdown: body, html: null }]).then((k) => ((putDone = true), k));
    for (let i = 0; i < 200 && !proxy.seen.slice(from).includes("PUT copy"); i++) await sleep(25);
    expect(proxy.seen.slice(from)).toContain("PUT copy");
    await sleep(300);
    // It has not answered yet: the sweep's mark on the key tells it a delete may follow its touch.
    expect(putDone).toBe(false);
    proxy.release();

    const [again] = await put;
    const report = await sweep;
    expect(report.deleted).toBe(1);
    expect(again.markdownKey).toBe(key);
    const id = await commit(again);
    expect(await bodyStore().has(key)).toBe(true);
    expect(await readable(id)).toBeNull();
    expect(await db().bodySweepMark.count()).toBe(0);
  });

  it("a put of a kept body that no sweep is removing answers after its touch, without waiting", async () => {
    const [first] = await keepBodies([{ markdown: page("no-sweep"), html: null }]);
    const from = proxy.seen.length;
    const [again] = await keepBodies([{ markdown: page("no-sweep"), html: null }]);
    expect(again.markdownKey).toBe(first.markdownKey);
    // One look, one touch; no write of the body again.
    expect(proxy.seen.slice(from).filter((r) => r === "PUT")).toEqual([]);
    expect(proxy.seen.slice(from)).toContain("PUT copy");
  });
});
