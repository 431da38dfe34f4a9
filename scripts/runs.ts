// npm run runs -- start --file urls.txt [--name daily] [--csv] [--ignore-invalid] [--follow]
// npm run runs -- list | show ID | cancel ID | retry-failed ID [--follow]
// Runs from the command line: the same code as POST /api/runs and the Runs pages. `--follow` prints a
// live progress line until the run is final: exit 0 when every URL is stored, 1 when any failed (with
// the count) or the run was cancelled, 2 on bad usage. The server's worker (or `npm run worker`) sends
// the run; this command only creates, acts and watches.
import { readFileSync, statSync } from "node:fs";
import { parseArgs } from "node:util";
import { type CliContext, runCli, UsageError } from "@/lib/cli";
import {
  cancelRun,
  createRun,
  getRun,
  listRuns,
  MAX_LIST_BYTES,
  parseText,
  retryFailed,
  type RunView,
} from "@/lib/runs";

const USAGE = `npm run runs -- start --file urls.txt [--name daily] [--csv] [--ignore-invalid] [--batch-size 1000] [--follow]
       npm run runs -- list | show ID | cancel ID | retry-failed ID [--follow]`;

type Args = {
  command: string;
  id?: string;
  file?: string;
  name?: string;
  csv: boolean;
  ignoreInvalid: boolean;
  batchSize?: number;
  follow: boolean;
};

function parse(): Args {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        file: { type: "string" },
        name: { type: "string" },
        csv: { type: "boolean", default: false },
        "ignore-invalid": { type: "boolean", default: false },
        "batch-size": { type: "string" },
        follow: { type: "boolean", default: false },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (err) {
    throw new UsageError(`${err instanceof Error ? err.message : String(err)}\nusage: ${USAGE}`);
  }
  const [command = "", id] = parsed.positionals;
  const v = parsed.values;
  if (!["start", "list", "show", "cancel", "retry-failed"].includes(command))
    throw new UsageError(`unknown command "${command}"\nusage: ${USAGE}`);
  if (command === "start" && !v.file) throw new UsageError(`start needs --file\nusage: ${USAGE}`);
  if (["show", "cancel", "retry-failed"].includes(command) && !id)
    throw new UsageError(`${command} needs a run id\nusage: ${USAGE}`);
  const batchSize = v["batch-size"] === undefined ? undefined : Number(v["batch-size"]);
  if (batchSize !== undefined && (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 1000))
    throw new UsageError(`--batch-size must be a whole number from 1 to 1000\nusage: ${USAGE}`);
  return {
    command,
    id,
    file: v.file,
    name: v.name,
    csv: v.csv || /\.csv$/i.test(v.file ?? ""),
    ignoreInvalid: v["ignore-invalid"],
    batchSize,
    follow: v.follow,
  };
}

const n = (x: number) => x.toLocaleString("en");

function progressLine(r: RunView): string {
  const c = r.counts;
  const pct = r.total > 0 ? Math.floor(((c.stored + c.failed) / r.total) * 100) : 100;
  const eta = r.etaSeconds === null || r.state === "completed" ? "" : ` · eta ${r.etaSeconds}s`;
  return `${r.state} ${pct}% · ${n(c.stored)} stored · ${n(c.failed)} failed · ${n(c.retrying)} retrying · ${n(c.submitted)} submitted · ${n(c.pending)} pending of ${n(r.total)} · batches ${r.chunks.submitted}/${r.chunks.total} · ${n(r.platformCalls)} platform calls${eta}`;
}

function exitCode(r: RunView, ctx: CliContext): number {
  if (r.duplicateSubmits > 0)
    ctx.print(`note: ${r.duplicateSubmits} batch(es) reached the platform twice; each URL counted once`);
  if (r.state === "cancelled") {
    ctx.print(`run ${r.id} cancelled: ${n(r.counts.stored)} stored, ${n(r.counts.failed)} failed`);
    return 1;
  }
  if (r.counts.failed > 0) {
    ctx.print(
      `run ${r.id} completed: ${n(r.counts.failed)} of ${n(r.total)} URLs failed (npm run runs -- show ${r.id})`,
    );
    return 1;
  }
  ctx.print(`run ${r.id} completed: all ${n(r.total)} URLs stored`);
  return 0;
}

async function follow(id: string, ctx: CliContext): Promise<number> {
  const tty = process.stdout.isTTY;
  let last = "";
  for (;;) {
    const run = await getRun(id);
    const line = progressLine(run);
    if (line !== last) {
      if (tty) process.stdout.write(`\r\x1b[2K[runs] ${line}`);
      else ctx.print(line);
      last = line;
    }
    if (run.state === "completed" || run.state === "cancelled") {
      if (tty) process.stdout.write("\n");
      return exitCode(run, ctx);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

void runCli("runs", parse, async (ctx, a) => {
  switch (a.command) {
    case "start": {
      const file = a.file ?? "";
      if (statSync(file).size > MAX_LIST_BYTES) throw new UsageError(`${file} is larger than ${MAX_LIST_BYTES} bytes`);
      const list = parseText(readFileSync(file, "utf8"), a.csv ? "csv" : "lines");
      const run = await createRun(
        list,
        { name: a.name, ignoreInvalid: a.ignoreInvalid, batchSize: a.batchSize },
        ctx.actor,
      );
      ctx.print(
        `run ${run.id} "${run.name}" created: ${n(run.total)} URLs (${n(run.duplicates)} duplicates, ${n(run.invalid)} invalid lines skipped)`,
      );
      return a.follow ? follow(run.id, ctx) : 0;
    }
    case "list": {
      const page = await listRuns({ limit: 50 });
      for (const r of page.items) ctx.print(`${r.id}  ${r.name}  ${progressLine(r)}`);
      if (page.items.length === 0) ctx.print("no runs yet");
      return 0;
    }
    case "show": {
      const run = await getRun(a.id ?? "");
      ctx.print(`${run.id} "${run.name}" created by ${run.createdBy} at ${run.createdAt}`);
      ctx.print(progressLine(run));
      return a.follow ? follow(run.id, ctx) : 0;
    }
    case "cancel": {
      const run = await cancelRun(a.id ?? "", ctx.actor);
      ctx.print(progressLine(run));
      return 0;
    }
    default: {
      const run = await retryFailed(a.id ?? "", ctx.actor);
      ctx.print(`${n(run.retried)} failed URLs go round again`);
      return a.follow ? follow(run.id, ctx) : 0;
    }
  }
});
