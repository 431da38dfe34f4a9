// npm run bodies -- migrate [--batch 200]
// npm run bodies -- verify [--sample 1000]
// The body store (issue 40, docs/operations/storage.md). migrate moves bodies stored inline in result
// rows (before the body store) into TALLY_BODY_STORE, a batch at a time, safe while Tally serves (a
// result reads the same before, during and after) and resumable (run it again after an interruption).
// verify reads back and re-hashes the objects the rows name, all or a sample, and lists every one
// missing or corrupt with its result: exit 0 when all are good, 1 when any is not, 2 on bad usage.
import { parseArgs } from "node:util";
import { bodyStoreReady } from "@/lib/bodies";
import { runCli, UsageError } from "@/lib/cli";
import { migrateInlineBodies, verifyBodies } from "@/lib/results";

const USAGE = `npm run bodies -- migrate [--batch 200]
       npm run bodies -- verify [--sample 1000]`;

type Args = { command: "migrate" | "verify"; batch: number; sample?: number };

const positive = (v: string | undefined, name: string, fallback?: number): number | undefined => {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000)
    throw new UsageError(`--${name} must be a whole number from 1 to 1000000\nusage: ${USAGE}`);
  return n;
};

function parse(): Args {
  let parsed;
  try {
    parsed = parseArgs({
      options: { batch: { type: "string" }, sample: { type: "string" } },
      strict: true,
      allowPositionals: true,
    });
  } catch (err) {
    throw new UsageError(`${err instanceof Error ? err.message : String(err)}\nusage: ${USAGE}`);
  }
  const [command, ...rest] = parsed.positionals;
  if ((command !== "migrate" && command !== "verify") || rest.length > 0)
    throw new UsageError(`say migrate or verify\nusage: ${USAGE}`);
  return {
    command,
    batch: positive(parsed.values.batch, "batch", 200) ?? 200,
    sample: positive(parsed.values.sample, "sample"),
  };
}

void runCli("bodies", parse, async (ctx, args) => {
  const store = await bodyStoreReady();
  ctx.print(`body store ${store.location}`);
  if (args.command === "migrate") {
    const done = await migrateInlineBodies({
      batch: args.batch,
      onBatch: (p) =>
        ctx.print(
          `${p.rows} rows looked at, ${p.bodies} bodies moved (${p.bytesMoved} bytes), up to result ${p.lastId}`,
        ),
    });
    ctx.print(`done: ${done.bodies} bodies moved into the store from ${done.rows} rows (${done.bytesMoved} bytes)`);
    return 0;
  }
  const report = await verifyBodies({ sample: args.sample, onProgress: (n) => ctx.print(`${n} objects checked`) });
  for (const p of report.problems)
    ctx.print(`${p.code}: the ${p.body} of result ${p.itemKey} of job ${p.jobId} (id ${p.resultId}): ${p.message}`);
  ctx.print(`${report.checked} objects checked: ${report.ok} good, ${report.problems.length} missing or corrupt`);
  return report.problems.length === 0 ? 0 : 1;
});
