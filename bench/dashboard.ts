// npm run bench:dashboard -- [--runs 20] [--warmup 3] [--result FILE]
// Times every dashboard list page and the overview on a large database: DATABASE_URL, or the cached
// one under the temp folder (seeded with `npm run seed:large` defaults the first time: a few minutes).
// Prints a table (median and p95 per query, flagged over 300 ms); --result FILE also writes them as JSON (for `npm run bench`).
import { spawnSync } from "node:child_process";
import { existsSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { z } from "zod";
import { DEFAULT_LARGE_DB, machine } from "./common";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "20" },
    warmup: { type: "string", default: "3" },
    result: { type: "string" },
  },
  strict: true,
});
const say = (s: string) => process.stdout.write(`${s}\n`);

const url = process.env.DATABASE_URL ?? `file:${DEFAULT_LARGE_DB}`;
const file = path.resolve(url.replace(/^file:/, ""));
if (!existsSync(file)) {
  say(`No database at ${file}: seeding one (npm run seed:large)…`);
  const seeded = spawnSync("npx", ["tsx", "--conditions=react-server", "scripts/seed-large.ts"], {
    env: { ...process.env, DATABASE_URL: `file:${file}` },
    stdio: "inherit",
  });
  if (seeded.status !== 0) process.exit(seeded.status ?? 1);
}
// Set before the first getConfig(): the lib reads its database from the configuration.
process.env.DATABASE_URL = `file:${file}`;
process.env.TALLY_LOG_LEVEL ??= "error";

const counts = (() => {
  const sql = new Database(file, { readonly: true });
  const n = (table: string) =>
    z.object({ n: z.number() }).parse(sql.prepare(`SELECT COUNT(*) n FROM "${table}"`).get()).n;
  const out = {
    jobs: n("Job"),
    inbound: n("InboundDelivery"),
    platform: n("PlatformDelivery"),
    deadLetters: n("DeadLetter"),
    runs: n("OperationRun"),
  };
  sql.close();
  return out;
})();

async function main(): Promise<void> {
  const { dashboardCases, dashboardTable, timeCases } = await import("./dashboard-core");
  const fmt = (v: number) => v.toLocaleString("en-US");
  say(
    `${machine()}\nDatabase ${file} (${(statSync(file).size / 1e9).toFixed(2)} GB): ${fmt(counts.jobs)} jobs, ${fmt(counts.inbound)} inbound deliveries, ${fmt(counts.platform)} platform deliveries, ${fmt(counts.deadLetters)} dead letters, ${fmt(counts.runs)} operation runs`,
  );
  const { now, cases } = dashboardCases(file);
  say(`Clock: ${now.toISOString()} (the newest row's time, so time windows match the seeded data).`);
  say(
    `Each query: ${values.warmup} warm-up runs, then ${values.runs} timed runs in one process (server-side time of the lib call, no HTTP).\n`,
  );
  const rows = await timeCases(cases, {
    runs: Number(values.runs),
    warmup: Number(values.warmup),
    onResult: (t) =>
      say(
        `  ${t.page} · ${t.name}: median ${t.medianMs.toFixed(1)} ms, p95 ${t.p95Ms.toFixed(1)} ms${t.over ? "  <-- over 300 ms" : ""}`,
      ),
  });
  say(`\n${dashboardTable(rows)}`);
  const over = rows.filter((r) => r.over);
  say(
    over.length === 0
      ? "\nEvery query's p95 is under 300 ms."
      : `\n${over.length} quer${over.length === 1 ? "y is" : "ies are"} over 300 ms at p95.`,
  );
  if (values.result)
    writeFileSync(values.result, `${JSON.stringify({ part: "dashboard", database: file, counts, rows })}\n`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
