// The chaos run's body store mode (issue 40: `npm run chaos -- --body-bytes 20000,200000`): the simulator
// serves pages of realistic size, so every stored result puts its bodies into a file body store shared
// by the run's processes; Tally's processes are SIGKILLed while a put is being written (a temporary
// file just appeared in the store); a sweeper process sweeps one sweep after another with a short
// grace and is SIGKILLed at random moments. At the end: every Result row that names a body (and has
// no bodyRemovedAt) has its object, readable and hash-correct; then one sweep past the grace leaves no
// object that no row names, and no temporary file.
import { type ChildProcess, spawn } from "node:child_process";
import { type FSWatcher, mkdtempSync, rmSync, watch } from "node:fs";
import { readdir } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { ListMultipartUploadsCommand, S3Client } from "@aws-sdk/client-s3";
import { type BodyCodec, type BodyStore, isBodyCodec, isBodyError, openBodyStore } from "../../lib/bodies";
import { S3RVER_CREDENTIALS, startS3Server } from "../../test/s3";
import type { ChaosStore } from "./store";

export type BodyBackend = "file" | "s3";

export type BodiesOptions = {
  /** [min, max] bytes of a page's markdown (the simulator's bodyBytes knob; html about 3×). */
  bodyBytes: [number, number];
  /** The sweeper's grace: longer than any store's put-to-commit under the run's load. */
  graceMs: number;
  /** Where the bodies go: a folder (the default), or an S3-compatible server the run starts. */
  backend?: BodyBackend;
};

export type BodiesLedger = {
  /** Result rows naming at least one body in the store, without bodyRemovedAt. */
  rowsNamingBodies: number;
  /** Distinct (key, codec) objects those rows name. */
  objectsNamed: number;
  /** Of those, objects missing, or there and not decoding to their key (both: rows naming nothing). */
  missing: number;
  corrupt: number;
  /** Rows naming a body that is missing or corrupt. */
  rowsWithoutBody: number;
  /** Kills that landed while a put was writing (a temporary file had just appeared), of all kills. */
  killsDuringStores: number;
  kills: number;
  /** Sweeps finished during the run, sweeper processes killed, objects those sweeps deleted. */
  sweeps: number;
  sweeperKills: number;
  sweptDuringRun: number;
  /** The body store's backend. */
  backend: BodyBackend;
  /**
   * After the final sweep past the grace: objects no row names, and what interrupted puts left
   * (temporary files; on S3 unfinished multipart uploads, null where the server cannot list them).
   */
  unreferencedLeft: number;
  temporariesLeft: number | null;
  ok: boolean;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const exited = (c: ChildProcess) =>
  new Promise<void>((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.once("exit", () => r())));

/**
 * The run's body store: TALLY_BODY_STORE (and, on S3, the standard AWS variables) for every process
 * of the run, a way to wait for a put to be under way (to kill a process in the middle of one), the
 * puts' leftovers, and a reader of the harness's own.
 */
export type ChaosBodyStore = {
  backend: BodyBackend;
  url: string;
  env: Record<string, string>;
  /** True once a put is under way (within timeoutMs): a temporary file appeared, or an upload began. */
  nextPut(timeoutMs: number): Promise<boolean>;
  /**
   * What interrupted puts leave: temporary files in the folder; on S3, multipart uploads never
   * completed, or null where the server cannot list them (S3 shows an object whole or not at all).
   */
  leftovers(): Promise<number | null>;
  open(): BodyStore;
  dispose(): Promise<void>;
};

/** A body store in a place of the run's own (never the working directory's ./data/bodies). */
export async function startChaosBodyStore(backend: BodyBackend, watchForPuts: boolean): Promise<ChaosBodyStore> {
  return backend === "s3" ? s3ChaosStore() : fileChaosStore(watchForPuts);
}

function fileChaosStore(watchForPuts: boolean): ChaosBodyStore {
  const root = path.join(mkdtempSync(path.join(tmpdir(), "tally-chaos-bodies-")), "bodies");
  const url = `file:${root}`;
  const puts = watchForPuts ? watchPuts(root) : null;
  return {
    backend: "file",
    url,
    env: { TALLY_BODY_STORE: url },
    nextPut: (timeoutMs) => (puts ? puts.next(timeoutMs) : Promise.resolve(false)),
    leftovers: () => temporaries(root),
    open: () => openBodyStore(url),
    async dispose() {
      puts?.close();
      rmSync(path.dirname(root), { recursive: true, force: true });
    },
  };
}

/**
 * An s3rver in a process of its own behind a proxy of the harness's: Tally's processes reach the
 * server through the proxy, which tells the harness when an upload (a PUT that is not a copy) begins.
 */
async function s3ChaosStore(): Promise<ChaosBodyStore> {
  const server = await startS3Server("tally-chaos");
  const proxy = await startUploadWatch(server.port).catch(async (err: unknown) => {
    await server.stop();
    throw err;
  });
  const url = `s3://${server.bucket}/bodies?forcePathStyle=true`;
  const aws = server.env(proxy.url);
  return {
    backend: "s3",
    url,
    env: { TALLY_BODY_STORE: url, ...aws },
    nextPut: (timeoutMs) => proxy.nextUpload(timeoutMs),
    async leftovers() {
      const client = new S3Client({
        endpoint: server.endpoint,
        region: aws.AWS_REGION,
        forcePathStyle: true,
        credentials: S3RVER_CREDENTIALS,
      });
      try {
        const out = await client.send(new ListMultipartUploadsCommand({ Bucket: server.bucket }));
        return (out.Uploads ?? []).length;
      } catch (err) {
        if ((err as { name?: string }).name === "NotImplemented") return null;
        throw err;
      } finally {
        client.destroy();
      }
    },
    open: () =>
      openBodyStore(url, { endpoint: server.endpoint, region: aws.AWS_REGION, credentials: S3RVER_CREDENTIALS }),
    async dispose() {
      await proxy.close();
      await server.stop();
    },
  };
}

/** An HTTP proxy to 127.0.0.1:`port` that resolves nextUpload() when an object upload begins. */
async function startUploadWatch(port: number): Promise<{
  url: string;
  nextUpload(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}> {
  let waiting: (() => void) | null = null;
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    // A PUT to bucket/key that copies nothing: a body going up (a copy only makes a kept one young).
    const isUpload =
      req.method === "PUT" && !req.headers["x-amz-copy-source"] && (req.url ?? "").split("?")[0]!.split("/").length > 2;
    const upstream = http.request(
      { host: "127.0.0.1", port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    // A client killed mid-request: the server sees the upload cut short too.
    res.on("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
    if (isUpload) {
      const w = waiting;
      waiting = null;
      w?.();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port: own } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${own}`,
    nextUpload: (timeoutMs) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          waiting = null;
          resolve(false);
        }, timeoutMs);
        waiting = () => {
          clearTimeout(timer);
          resolve(true);
        };
      }),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

/** Calls back on every temporary file a put creates in the store (not a sweep's own aside). */
function watchPuts(root: string): { next(timeoutMs: number): Promise<boolean>; close(): void } {
  let waiting: ((caught: boolean) => void) | null = null;
  let watcher: FSWatcher | null = null;
  const start = () => {
    try {
      watcher = watch(root, { recursive: true }, (_event, name) => {
        const base = name ? path.basename(String(name)) : "";
        if (base.startsWith(".tmp-") && !base.startsWith(".tmp-sweep-") && !base.startsWith(".tmp-check-")) {
          const w = waiting;
          waiting = null;
          w?.(true);
        }
      });
    } catch {
      watcher = null; // the folder is not there yet: the next wait tries again
    }
  };
  return {
    async next(timeoutMs) {
      if (!watcher) start();
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          waiting = null;
          resolve(false);
        }, timeoutMs);
        waiting = (caught) => {
          clearTimeout(timer);
          resolve(caught);
        };
      });
    },
    close: () => watcher?.close(),
  };
}

export type Sweeper = {
  sweeps(): number;
  deleted(): number;
  kills(): number;
  /** Kills it at random moments until stopped. */
  stop(): Promise<void>;
};

function spawnSweeper(env: Record<string, string>, onLine: (line: string) => void): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", "scripts/chaos/sweeper.ts"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let buf = "";
  child.stdout?.on("data", (d: Buffer) => {
    buf += d.toString();
    for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
      onLine(buf.slice(0, i));
      buf = buf.slice(i + 1);
    }
  });
  child.stderr?.on("data", () => undefined);
  return child;
}

/**
 * Sweeps all the time with `graceMs`, killed (SIGKILL) and started again: each process is killed at a
 * random moment after its 1st–3rd sweep has reported (a process takes seconds to start under load),
 * so the kills land inside sweeps or between them, never only during start-up.
 */
export function startSweeper(env: Record<string, string>, graceMs: number, random: () => number): Sweeper {
  let sweeps = 0;
  let sinceSpawn = 0;
  let deleted = 0;
  let kills = 0;
  let running = true;
  const onLine = (line: string) => {
    try {
      const r = JSON.parse(line) as { deleted?: number };
      sweeps++;
      sinceSpawn++;
      deleted += r.deleted ?? 0;
    } catch {
      // not a report
    }
  };
  const sweeperEnv = { ...env, CHAOS_SWEEP_GRACE_MS: String(graceMs), CHAOS_SWEEP_PAUSE_MS: "100" };
  let child = spawnSweeper(sweeperEnv, onLine);
  const loop = (async () => {
    while (running) {
      const wanted = 1 + Math.floor(random() * 3);
      const until = Date.now() + 60_000;
      while (running && sinceSpawn < wanted && Date.now() < until) await sleep(20);
      await sleep(random() * 400);
      if (!running) break;
      child.kill("SIGKILL");
      await exited(child);
      kills++;
      sinceSpawn = 0;
      child = spawnSweeper(sweeperEnv, onLine);
    }
  })();
  return {
    sweeps: () => sweeps,
    deleted: () => deleted,
    kills: () => kills,
    async stop() {
      running = false;
      await loop;
      child.kill("SIGTERM");
      await exited(child);
    },
  };
}

/** One sweep with `graceMs` in a process of its own, to its end. */
export async function sweepOnce(env: Record<string, string>, graceMs: number): Promise<void> {
  const child = spawnSweeper({ ...env, CHAOS_SWEEP_GRACE_MS: String(graceMs), CHAOS_SWEEP_ONCE: "1" }, () => undefined);
  await exited(child);
  if (child.exitCode !== 0) throw new Error(`chaos: the final sweep exited with ${child.exitCode ?? child.signalCode}`);
}

type Named = { id: number | string; key: string; codec: string };

/** Every (key, codec) the rows without bodyRemovedAt name, with the rows naming each. */
async function namedBodies(store: ChaosStore): Promise<{ rows: number; objects: Map<string, Named[]> }> {
  const rows = await store.all<{
    id: number | string;
    markdownKey: string | null;
    markdownCodec: string | null;
    htmlKey: string | null;
    htmlCodec: string | null;
  }>(
    `SELECT "id", "markdownKey", "markdownCodec", "htmlKey", "htmlCodec" FROM "Result"
     WHERE "bodyRemovedAt" IS NULL AND ("markdownKey" IS NOT NULL OR "htmlKey" IS NOT NULL)`,
  );
  const objects = new Map<string, Named[]>();
  for (const r of rows)
    for (const [key, codec] of [
      [r.markdownKey, r.markdownCodec],
      [r.htmlKey, r.htmlCodec],
    ] as const) {
      if (!key) continue;
      const name = `${key}/${codec ?? ""}`;
      const list = objects.get(name) ?? [];
      list.push({ id: r.id, key, codec: codec ?? "" });
      objects.set(name, list);
    }
  return { rows: rows.length, objects };
}

async function temporaries(root: string): Promise<number> {
  let n = 0;
  const walk = async (dir: string, depth: number): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (e.name.startsWith(".tmp-")) n++;
      else if (e.isDirectory() && depth < 2) await walk(path.join(dir, e.name), depth + 1);
    }
  };
  await walk(root, 0);
  return n;
}

/**
 * The end of the run: every body a row names is there, readable and hash-correct; then the final
 * sweep past the grace (`finalSweep`: the run's sweeper with no grace) must leave nothing unnamed and
 * no leftover of an interrupted put.
 */
export async function checkBodies(
  store: ChaosStore,
  bodies: Pick<ChaosBodyStore, "backend" | "open" | "leftovers">,
  during: { kills: number; killsDuringStores: number; sweeper?: Sweeper },
  finalSweep: () => Promise<void>,
): Promise<BodiesLedger> {
  const reader = bodies.open();
  try {
    const named = await namedBodies(store);
    let missing = 0;
    let corrupt = 0;
    let rowsWithoutBody = 0;
    for (const [, rows] of named.objects) {
      const { key, codec } = rows[0]!;
      try {
        if (!isBodyCodec(codec)) throw Object.assign(new Error(`codec ${codec}`), { code: "body_corrupt", key });
        await reader.read(key, codec as BodyCodec);
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === "body_missing") missing++;
        else if (code === "body_corrupt" || isBodyError(err)) corrupt++;
        else throw err;
        rowsWithoutBody += rows.length;
      }
    }
    await finalSweep();
    const after = await namedBodies(store);
    const keys = new Set([...after.objects.values()].map((r) => `${r[0]!.key}/${r[0]!.codec}`));
    let unreferencedLeft = 0;
    for await (const o of reader.list()) if (!keys.has(`${o.key}/${o.codec}`)) unreferencedLeft++;
    const temporariesLeft = await bodies.leftovers();
    const ledger: BodiesLedger = {
      rowsNamingBodies: named.rows,
      objectsNamed: named.objects.size,
      missing,
      corrupt,
      rowsWithoutBody,
      killsDuringStores: during.killsDuringStores,
      kills: during.kills,
      sweeps: during.sweeper?.sweeps() ?? 0,
      sweeperKills: during.sweeper?.kills() ?? 0,
      sweptDuringRun: during.sweeper?.deleted() ?? 0,
      backend: bodies.backend,
      unreferencedLeft,
      temporariesLeft,
      ok: false,
    };
    ledger.ok = bodiesOk(ledger);
    return ledger;
  } finally {
    await reader.close();
  }
}

/** The verdict (pure): bodies were stored, none is missing or corrupt, nothing unnamed or temporary is left. */
export function bodiesOk(l: Omit<BodiesLedger, "ok">): boolean {
  return (
    l.rowsNamingBodies > 0 &&
    l.missing === 0 &&
    l.corrupt === 0 &&
    l.rowsWithoutBody === 0 &&
    l.unreferencedLeft === 0 &&
    (l.temporariesLeft ?? 0) === 0
  );
}

export function printBodies(l: BodiesLedger, log: (s: string) => void = console.log) {
  const rows: [string, number | string][] = [
    ["body store", l.backend === "s3" ? "S3 (an s3rver of the run's own)" : "a folder"],
    ["results naming a body (no bodyRemovedAt)", l.rowsNamingBodies],
    ["objects they name", l.objectsNamed],
    ["  missing", l.missing],
    ["  corrupt (hash does not match)", l.corrupt],
    ["results naming nothing", l.rowsWithoutBody],
    ["kills during a put (of all kills)", `${l.killsDuringStores} of ${l.kills}`],
    ["sweeps during the run (sweeper killed)", `${l.sweeps} (${l.sweeperKills})`],
    ["objects swept during the run", l.sweptDuringRun],
    ["unreferenced objects after a sweep past the grace", l.unreferencedLeft],
    [
      l.backend === "s3" ? "unfinished multipart uploads left after it" : "temporary files left after it",
      l.temporariesLeft ?? "n/a (the server lists none)",
    ],
  ];
  for (const [k, v] of rows) log(`  ${k.padEnd(52)} ${v}`);
}
