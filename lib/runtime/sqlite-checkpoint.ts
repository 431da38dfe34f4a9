import "server-only";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";
import { singleton } from "./singleton";

// In WAL mode the commit that takes the log past 1,000 pages checkpoints it: copies the log into the
// database and fsyncs both, on the committing thread. In Tally's server that thread is the event loop,
// so for 10–15 ms no delivery is answered and no item runs: under load about one commit in fifty
// (bench/pipeline.ts, 4,000 jobs on SQLite: 120 such commits, 1.5 s of a 14 s run, the claims' own
// included). With background checkpoints on (the server and `npm run worker` turn them on), every
// connection the process opens leaves checkpoints to a thread of its own per database file
// (wal_autocheckpoint = 0), which checkpoints PASSIVE every INTERVAL_MS: a passive checkpoint never
// waits for or blocks a reader or a writer, and the writer that follows a complete one starts the log
// over, as after an automatic checkpoint. If the thread ever stops, its connections go back to
// automatic checkpoints.

const INTERVAL_MS = 250;
const AUTO_PAGES = 1000; // SQLite's default wal_autocheckpoint

// The thread's code, run as CommonJS: better-sqlite3 is loaded from the path the process resolved.
const THREAD = `
const { workerData, parentPort } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 0, fileMustExist: true });
const timer = setInterval(() => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch (err) {
    if (err.code !== "SQLITE_BUSY" && err.code !== "SQLITE_LOCKED") throw err;
  }
}, workerData.intervalMs);
parentPort.on("message", () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

type Checkpointer = { worker: Worker; conns: Set<Database.Database> };
type State = { enabled: boolean; files: Map<string, Checkpointer> };

const state = () => singleton<State>("sqlite.checkpoints", () => ({ enabled: false, files: new Map() }));

/** Turns background checkpoints on for the connections this process opens from now on. */
export function enableBackgroundCheckpoints(): void {
  state().enabled = true;
}

/**
 * For every SQLite connection Tally opens (the app's, the receiver's): when background checkpoints are
 * on, its checkpoints are left to the file's thread, started on first use.
 */
export function manageCheckpoints(conn: Database.Database, file: string): void {
  const s = state();
  if (!s.enabled || file === ":memory:" || file === "") return;
  const key = path.resolve(file);
  let c = s.files.get(key);
  if (!c) {
    c = start(key);
    s.files.set(key, c);
  }
  conn.pragma("wal_autocheckpoint = 0");
  c.conns.add(conn);
}

function start(file: string): Checkpointer {
  const driver = createRequire(path.join(process.cwd(), "package.json")).resolve("better-sqlite3");
  const worker = new Worker(THREAD, { eval: true, workerData: { file, driver, intervalMs: INTERVAL_MS } });
  const c: Checkpointer = { worker, conns: new Set() };
  // Nothing waits for it: the process exits when its work is done, and the next open recovers the log.
  worker.unref();
  const fallBack = (reason: string) => {
    if (state().files.get(file) !== c) return;
    state().files.delete(file);
    for (const conn of c.conns) if (conn.open) conn.pragma(`wal_autocheckpoint = ${AUTO_PAGES}`);
    process.stderr.write(`SQLite background checkpoints stopped (${reason}); commits checkpoint again\n`);
  };
  worker.on("error", (err) => fallBack(err.message));
  worker.on("exit", (code) => fallBack(`exit ${code}`));
  return c;
}

/** The thread checkpointing `file`, if one runs (for tests). */
export function checkpointThread(file: string): Worker | undefined {
  return state().files.get(path.resolve(file))?.worker;
}

/** Stops the process's checkpoint threads (its connections are closing). */
export async function stopBackgroundCheckpoints(): Promise<void> {
  const s = state();
  const all = [...s.files.values()];
  s.files.clear();
  await Promise.all(
    all.map(async (c) => {
      const exited = new Promise((r) => c.worker.once("exit", r));
      c.worker.postMessage("stop");
      await exited;
    }),
  );
}
