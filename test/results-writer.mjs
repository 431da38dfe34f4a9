// A writer process for the change-feed concurrency test: commits small transactions of Result rows
// into one SQLite file until its deadline, the way the worker does (BEGIN IMMEDIATE, a page of rows).
// Like lib/jobs/store-results.ts it takes createdAt once per page and commits that page in several
// statements, so rows often commit after other writers' rows with a later createdAt: a createdAt
// cursor would skip them. Prints its row count.
// Usage: node test/results-writer.mjs <db file> <job id> <stop file> (writes until the stop file exists)
import { existsSync } from "node:fs";
import Database from "better-sqlite3";

const [file, jobId, stopFile] = process.argv.slice(2);
const db = new Database(file, { timeout: 10_000 });
db.pragma("journal_mode = WAL");
const insert =
  db.prepare(`INSERT INTO "Result" ("jobId","itemKey","url","status","format","markdown","tokensCharged","createdAt")
  VALUES (?,?,NULL,'completed','markdown',?,1,?)`);
const pause = new Int32Array(new SharedArrayBuffer(4));
const sleep = (n) => Atomics.wait(pause, 0, 0, n);
// Writers commit in the first half of every wall-clock second and rest in the second half (all of them
// at once: the clock is shared), so a reader on a loaded machine still reaches the tail while they write.
const WRITE_PHASE_MS = 500;
let rows = 0;
while (!existsSync(stopFile)) {
  const intoSecond = Date.now() % 1000;
  if (intoSecond >= WRITE_PHASE_MS) {
    sleep(1000 - intoSecond);
    continue;
  }
  // As insertRows does: one createdAt for a page of results, written in several short transactions,
  // with the next platform call in between; other writers commit rows with later times meanwhile.
  const createdAt = new Date().toISOString().replace("Z", "+00:00");
  const batches = 1 + Math.floor(Math.random() * 3);
  for (let b = 0; b < batches; b++) {
    const n = 1 + Math.floor(Math.random() * 3);
    db.exec("BEGIN IMMEDIATE");
    for (let i = 0; i < n; i++) insert.run(jobId, String(rows + i), `row ${rows + i} of ${jobId}`, createdAt);
    db.exec("COMMIT");
    rows += n;
    sleep(10 + Math.floor(Math.random() * 40)); // a trickle the reader can catch up with, so it pages at the tail
  }
}
db.close();
process.stdout.write(`${rows}\n`);
