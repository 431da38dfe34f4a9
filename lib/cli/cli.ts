import "server-only";
import { userInfo } from "node:os";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { configOrExit, setApiBaseUrl } from "../config";
import { dbReady, disconnectAll } from "../db";
import { TallyError } from "../errors";
import { setLogLevel } from "../log";
import { flushApiCalls } from "../platform";
import { getRun, type RunView } from "../operations";
import { inSpan, startTracing, stopTracing } from "../tracing";

// The shared frame of the CLI scripts (npm run reconcile | replay | rotate | register-webhooks):
// same code as the dashboard's buttons, progress printed as it changes, a summary at the end, and
// the exit code says how it went: 0 succeeded, 1 failed, 2 bad usage.

export class UsageError extends Error {}

export type CliContext = { actor: string; print(line: string): void };

export function parseCliArgs<T extends NonNullable<ParseArgsConfig["options"]>>(options: T, usage: string) {
  try {
    return parseArgs({ options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new UsageError(`${err instanceof Error ? err.message : String(err)}\nusage: ${usage}`);
  }
}

/** Prints progress of a run (in this or another process) until it ends. */
export async function followRun(runId: string, ctx: CliContext, pollMs = 500): Promise<RunView> {
  let last = "";
  for (;;) {
    const run = await getRun(runId);
    if (!run) throw new Error(`run ${runId} not found`);
    const shown = JSON.stringify(run.progress ?? {});
    if (shown !== last && run.progress) ctx.print(`progress ${shown}`);
    last = shown;
    if (run.state !== "running") return run;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

export function printOutcome(run: RunView, ctx: CliContext): number {
  ctx.print(`run ${run.id} ${run.state}`);
  if (run.summary) ctx.print(`summary ${JSON.stringify(run.summary, null, 2)}`);
  if (run.error) ctx.print(`error: ${run.error}`);
  return run.state === "succeeded" ? 0 : 1;
}

/** `parse` checks the arguments before anything is opened; `main` returns the exit code. */
export async function runCli<A>(
  name: string,
  parse: () => A,
  main: (ctx: CliContext, args: A) => Promise<number>,
): Promise<never> {
  const print = (line: string) => process.stdout.write(`[${name}] ${line}\n`);
  // Whoever runs a script holds the server itself, outside Tally's accounts: the audit log and the
  // run's "started by" name the system (audit actors are an e-mail, token:{name} or system).
  const ctx: CliContext = { actor: "system", print };
  print(`acting as "system" (OS user ${osUser()})`);
  let code = 1;
  try {
    const args = parse();
    const config = configOrExit();
    setLogLevel(config.TALLY_LOG_LEVEL);
    if (!config.apiBaseUrl) {
      // Demo mode without SCRAPER_API_BASE_URL: talk to the simulator `npm start` runs.
      const url = `http://127.0.0.1:${config.TALLY_SIM_PORT}`;
      print(`demo mode: using the simulator at ${url} (set SCRAPER_API_BASE_URL to choose another)`);
      setApiBaseUrl(url);
    }
    await startTracing(config, name);
    await dbReady();
    // With tracing on, the tool's work is one trace (what it queues links to it: replay, reconcile).
    code = await inSpan(`cli ${name}`, { root: true }, () => main(ctx, args));
  } catch (err) {
    const usage = err instanceof UsageError;
    process.stderr.write(`[${name}] ${usage ? "" : "failed: "}${err instanceof Error ? err.message : String(err)}\n`);
    if (err instanceof TallyError && err.details) process.stderr.write(`[${name}] ${JSON.stringify(err.details)}\n`);
    code = usage ? 2 : 1;
  } finally {
    await flushApiCalls().catch(() => undefined);
    await disconnectAll().catch(() => undefined);
    await stopTracing();
  }
  process.exit(code);
}

/** The OS account running a CLI script, for the audit log ("unknown" when the system cannot say). */
export function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return "unknown";
  }
}
