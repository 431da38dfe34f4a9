// npm run reconcile -- [--scope recent|full] [--since ISO] [--older-than SECONDS]
// Lists the platform's jobs (new since the watermark, or all of them) and enqueues every settled one whose outcome is missing here.
import { reconcileAction } from "@/lib/safety-nets";
import { followRun, parseCliArgs, printOutcome, runCli, UsageError } from "@/lib/cli";
import { reconcileBodySchema } from "@/lib/operations";

const USAGE = "npm run reconcile -- [--scope recent|full] [--since 2026-01-31T00:00:00Z] [--older-than 600]";

function parse() {
  const args = parseCliArgs(
    { since: { type: "string" }, "older-than": { type: "string" }, scope: { type: "string" } },
    USAGE,
  );
  const olderThan = args["older-than"];
  // The same schema as POST /api/operations/reconcile, so the CLI and the API accept the same input.
  const parsed = reconcileBodySchema.safeParse({
    since: args.since,
    scope: args.scope,
    olderThanSeconds: olderThan === undefined ? undefined : Number(olderThan),
  });
  if (!parsed.success) throw new UsageError(`${parsed.error.issues[0]?.message ?? "bad arguments"}\nusage: ${USAGE}`);
  return parsed.data;
}

void runCli("reconcile", parse, async (ctx, body) => {
  const started = await reconcileAction(body, ctx.actor);
  ctx.print(
    started.alreadyRunning
      ? `a reconciliation is already running: following run ${started.runId}`
      : `run ${started.runId} started`,
  );
  return printOutcome(await followRun(started.runId, ctx), ctx);
});
