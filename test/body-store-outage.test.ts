// The body store stops in the middle of an export (issue 50 item 4), on S3 (s3rver behind a proxy that
// starts failing every request: connections reset, or S3's AccessDenied, NoSuchBucket, SlowDown) and on
// the file store (its folder, a link, swapped at once for a link to a file: every read fails with
// ENOTDIR, as a disk that went away; chmod would not deny a test run as root), against the built server over real HTTP, on the
// suite's database (SQLite, and PostgreSQL through TALLY_TEST_STORE=postgres). Done when: the export
// completes with every row, those read after the stop marked body_unavailable; the results API and the
// feed answer 200 with the code by row; the job page says so once; the alert rule fires; and once the
// store is back every row reads again, with nothing deleted or rewritten meanwhile.
import { mkdir, readdir, rename, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateAlerts } from "@/lib/alerts/evaluate";
import { bodyStore, closeBodyStore } from "@/lib/bodies";
import { db } from "@/lib/db";
import { keepBodies } from "@/lib/jobs/keep-bodies";
import { cookieOf, signIn } from "./accounts-helpers";
import { createTestDb, type TestDb } from "./db";
import { metricValue } from "./metrics-text";
import { startS3Server, type S3Server } from "./s3";
import { S3_FAULTS, startS3FaultProxy, type S3Fault, type S3FaultProxy } from "./s3-fault-proxy";
import { TEST_STORE } from "./store";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

const JOB = "outage-job";
/**
 * Pages of the export (EXPORT_PAGE 500 rows), naming a few bodies between them: three on S3, six on
 * files, whose reads run further ahead of the client (a stat each) before the stop.
 */
const PAGES = { s3: 3, file: 6 } as const;
const BODIES = 30;
/** About 30 KB each: a page of 500 rows is 15 MB, more than loopback buffers hold ahead of the reader. */
const body = (i: number) =>
  Array.from({ length: 480 }, (_, p) => `body ${i}, paragraph ${p} of a page kept in the body store.`).join("\n");

type Item = { itemKey: string; markdown: string | null; bodyError: string | null };
const expected = (itemKey: string) => body(Number(itemKey) % BODIES);

describe.each(["s3", "file"] as const)(`the body store stops mid-export (%s, ${TEST_STORE})`, (backend) => {
  const ROWS = PAGES[backend] * 500;
  let s3: S3Server | undefined;
  let proxy: S3FaultProxy | undefined;
  let t: TestDb;
  let tally: TallyServer;
  let root = "";
  let cookie = "";
  const saved = { ...process.env };
  const auth = { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` };
  const get = (p: string) => fetch(tally.url + p, { headers: auth });

  /** Stops the store: S3 fails every request with `fault`; the folder is a file now. */
  let down = false;
  async function stop(fault: S3Fault = S3_FAULTS.reset) {
    down = true;
    if (proxy) proxy.set(fault);
    else {
      // The store's folder is a link; swapped at once (a rename over it) for one to a file: there is
      // never a moment without it, which would read as every object missing rather than the disk gone.
      await writeFile(`${root}.file`, "not the body store's folder any more\n");
      await symlink(`${root}.file`, `${root}.swap`);
      await rename(`${root}.swap`, root);
    }
  }
  async function restore() {
    if (!down) return;
    down = false;
    if (proxy) proxy.set({ kind: "pass" });
    else {
      await symlink(`${root}.real`, `${root}.swap`);
      await rename(`${root}.swap`, root);
    }
    // Within seconds: a store whose reads failed in a row is not asked for a few (lib/bodies' DOWN_FOR_MS).
    for (let i = 0; i < 50; i++) {
      const res = await get(`/api/jobs/${JOB}/results?limit=${BODIES}`);
      const { items } = (await res.json()) as { items: Item[] };
      if (items.every((r) => r.bodyError === null)) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error("the body store did not read again within 10 s of its return");
  }
  /** What the database holds of the job and its results: nothing of it may change through an outage. */
  const snapshot = async () => ({
    job: await db().job.findUniqueOrThrow({ where: { id: JOB } }),
    results: await db().result.findMany({ where: { jobId: JOB }, orderBy: { id: "asc" } }),
  });
  const objects = async () => {
    const keys: string[] = [];
    for await (const o of bodyStore().list()) keys.push(`${o.key}.${o.codec}:${o.storedSize}`);
    return keys.sort();
  };

  beforeAll(async () => {
    let env: Record<string, string> = {};
    if (backend === "s3") {
      s3 = await startS3Server("tally-outage");
      proxy = await startS3FaultProxy(s3.endpoint);
      // This process (seeding, the snapshot of objects) reaches S3 directly; the server through the proxy.
      s3.useEnv();
      env = { ...s3.env(proxy.endpoint), TALLY_BODY_STORE: "s3://tally-outage/b?forcePathStyle=true" };
    }
    t = await createTestDb(env.TALLY_BODY_STORE ? { TALLY_BODY_STORE: env.TALLY_BODY_STORE } : {});
    root = t.config.TALLY_BODY_STORE.slice("file:".length);
    if (backend === "file") {
      await mkdir(`${root}.real`);
      await symlink(`${root}.real`, root);
    }
    await db().job.create({
      data: { id: JOB, kind: "crawl", url: "https://example.com", origin: "submitted", outcome: "stored" },
    });
    const kept = await keepBodies(Array.from({ length: BODIES }, (_, i) => ({ markdown: body(i), html: null })));
    expect(kept.every((k) => k.markdownKey !== null)).toBe(true);
    for (let from = 0; from < ROWS; from += 500)
      await db().result.createMany({
        data: Array.from({ length: 500 }, (_, j) => {
          const i = from + j;
          const k = kept[i % BODIES];
          return {
            jobId: JOB,
            itemKey: String(i),
            url: `https://example.com/${i}`,
            format: "markdown",
            markdownKey: k.markdownKey,
            markdownCodec: k.markdownCodec,
            markdownSize: k.markdownSize,
          };
        }),
      });
    await db().job.update({ where: { id: JOB }, data: { resultCount: ROWS } });
    // The alert rules are evaluated by the test (below), not also by the server's schedule.
    tally = await startTally({ ...env, TALLY_ALERTS: "off" }, t.url);
    cookie = cookieOf(await signIn(tally, { password: TEST_ENV.TALLY_OPERATOR_PASSWORD }));
  }, 180_000);

  afterAll(async () => {
    await tally?.stop();
    await t?.cleanup();
    await proxy?.close();
    await s3?.stop();
    process.env = saved;
  });

  it("the export completes with every row, those after the stop marked; the API answers 200 by row; after, every row reads again", async () => {
    const before = await snapshot();
    const objectsBefore = await objects();
    try {
      await exportThroughAnOutage();
    } finally {
      await restore();
    }
    expect(await snapshot()).toEqual(before);
    expect(await objects()).toEqual(objectsBefore);
  }, 180_000);

  async function exportThroughAnOutage() {
    const countedBefore = metricValue(await (await get("/api/metrics")).text(), "tally_body_unavailable_total");
    // The JSON Lines export, read as it streams: the store stops once a page of rows has arrived.
    const res = await get(`/api/results/export?format=jsonl&jobId=${JOB}`);
    expect(res.status).toBe(200);
    const rows: Item[] = [];
    let pending = "";
    let stopped = false;
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const l of lines) if (l) rows.push(JSON.parse(l) as Item);
      if (!stopped && rows.length >= 500) {
        await stop();
        stopped = true;
      }
    }
    expect(pending).toBe("");
    expect(stopped).toBe(true);

    // Every row, once, in order, and none cut short: a body as stored, or the row marked.
    expect(rows.map((r) => r.itemKey)).toEqual(Array.from({ length: ROWS }, (_, i) => String(i)));
    const marked = rows.filter((r) => r.bodyError !== null);
    for (const r of rows) {
      if (r.bodyError === null) expect(r.markdown, r.itemKey).toBe(expected(r.itemKey));
      else {
        expect(r.markdown, r.itemKey).toBeNull();
        expect(r.bodyError, r.itemKey).toMatch(
          new RegExp(
            // The bearer token is an admin's: the store's own words follow.
            `^body_unavailable: the markdown of result ${r.itemKey} of job ${JOB} cannot be read now \\(try again\\): body [0-9a-f]{64} cannot be read now: the body store at (s3|file):`,
          ),
        );
      }
    }
    // Those read before the stop kept their bodies; the last page was read after it.
    expect(rows.slice(0, 500).every((r) => r.bodyError === null)).toBe(true);
    expect(rows.slice(-500).every((r) => r.bodyError !== null)).toBe(true);

    // The CSV export with the store still down: complete, its bodyError column says it by row.
    const csv = await (await get(`/api/results/export?format=csv&jobId=${JOB}`)).text();
    expect(
      csv.match(/body_unavailable: the markdown of result \d+ of job outage-job cannot be read now/g),
    ).toHaveLength(ROWS);

    // The results API and the feed: 200, the code by row (never body_missing: nothing says it is gone).
    for (const p of [`/api/jobs/${JOB}/results?limit=50`, `/api/results?jobId=${JOB}&limit=50`]) {
      const api = await get(p);
      expect(api.status, p).toBe(200);
      const { items } = (await api.json()) as { items: Item[] };
      expect(items, p).toHaveLength(50);
      for (const i of items) expect(i.bodyError, p).toMatch(/^body_unavailable: /);
    }

    // The job page says it once, above the results.
    const page = await fetch(`${tally.url}/jobs/${JOB}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-testid="bodies-unavailable"');
    expect(html.replaceAll("<!-- -->", "")).toContain(
      "The body store did not answer: 20 results shown cannot be read now.",
    );

    // Counted, and the alert rule (its probe from this process, which reads the same store) fires.
    const counted = metricValue(await (await get("/api/metrics")).text(), "tally_body_unavailable_total");
    expect(counted - countedBefore).toBeGreaterThanOrEqual(marked.length + ROWS);
    // This process's store opened anew, through the proxy now, as the server's.
    if (proxy) process.env.AWS_ENDPOINT_URL_S3 = proxy.endpoint;
    await closeBodyStore();
    await evaluateAlerts();
    const firing = await db().alertState.findUniqueOrThrow({ where: { rule: "body_store_unavailable" } });
    expect(firing.state).toBe("firing");
    expect(firing.summary).toMatch(/^the body store did not answer a read of a kept body/);

    // Back: every row reads again, nothing in the database or the store changed meanwhile.
    await restore();
    const again = await (await get(`/api/results/export?format=jsonl&jobId=${JOB}`)).text();
    const read = again
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Item);
    expect(read).toHaveLength(ROWS);
    for (const r of read) {
      expect(r.bodyError, r.itemKey).toBeNull();
      expect(r.markdown, r.itemKey).toBe(expected(r.itemKey));
    }
    const api = (await (await get(`/api/jobs/${JOB}/results?limit=50`)).json()) as { items: Item[] };
    expect(api.items.every((i) => i.bodyError === null && i.markdown === expected(i.itemKey))).toBe(true);
    await closeBodyStore();
    await evaluateAlerts({ now: new Date(Date.now() + 60_000) });
    expect((await db().alertState.findUniqueOrThrow({ where: { rule: "body_store_unavailable" } })).state).toBe("ok");
  }

  it.runIf(backend === "s3")(
    "every way S3 fails (reset, AccessDenied, NoSuchBucket, SlowDown) is body_unavailable by row, never body_missing",
    async () => {
      const before = await snapshot();
      for (const [name, fault] of Object.entries(S3_FAULTS)) {
        await stop(fault);
        for (const p of [`/api/jobs/${JOB}/results?limit=5`, `/api/results?jobId=${JOB}&limit=5`]) {
          const res = await get(p);
          expect(res.status, `${name} ${p}`).toBe(200);
          const { items } = (await res.json()) as { items: Item[] };
          expect(
            items.map((i) => i.bodyError?.split(":")[0]),
            `${name} ${p}`,
          ).toEqual(Array(5).fill("body_unavailable"));
        }
        await restore();
        const back = (await (await get(`/api/jobs/${JOB}/results?limit=5`)).json()) as { items: Item[] };
        expect(
          back.items.map((i) => i.markdown === expected(i.itemKey)),
          name,
        ).toEqual(Array(5).fill(true));
      }
      expect(proxy?.failed()).toBeGreaterThan(0);
      expect(await snapshot()).toEqual(before);
    },
    120_000,
  );

  it.runIf(backend === "file")("an object that is a folder now (EISDIR) is body_unavailable too", async () => {
    const before = await snapshot();
    const key = before.results[0].markdownKey!;
    const at = path.join(root, key.slice(0, 2), key.slice(2, 4), `${key}.br`);
    expect(await readdir(path.dirname(at))).toContain(`${key}.br`);
    await rename(at, `${at}.away`);
    await mkdir(at);
    try {
      const res = await get(`/api/jobs/${JOB}/results?limit=${BODIES * 2}`);
      expect(res.status).toBe(200);
      const { items } = (await res.json()) as { items: Item[] };
      expect(items.filter((i) => i.bodyError !== null).map((i) => i.itemKey)).toEqual(["0", String(BODIES)]);
      expect(items[0].bodyError).toMatch(/^body_unavailable: /);
    } finally {
      await rm(at, { recursive: true });
      await rename(`${at}.away`, at);
    }
    expect(await snapshot()).toEqual(before);
  });
});
