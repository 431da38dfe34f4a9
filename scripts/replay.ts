// npm run replay -- [--webhook ID] [--since ISO]
// Reads the platform's delivery log and enqueues every job none of whose deliveries got a 2xx.
import { replayAction } from "@/lib/safety-nets";
import { followRun, parseCliArgs, printOutcome, runCli, UsageError } from "@/lib/cli";
import { replayBodySchema } from "@/lib/operations";
import { resolveSubscriptionId } from "@/lib/subscriptions";

const USAGE = "npm run replay -- [--webhook SUBSCRIPTION_OR_WEBHOOK_ID] [--since 2026-01-31T00:00:00Z]";

function parse() {
  const args = parseCliArgs({ webhook: { type: "string" }, since: { type: "string" } }, USAGE);
  const parsed = replayBodySchema.safeParse({ since: args.since });
  if (!parsed.success) throw new UsageError(`${parsed.error.issues[0]?.message ?? "bad arguments"}\nusage: ${USAGE}`);
  return { since: parsed.data.since, webhook: args.webhook };
}

void runCli("replay", parse, async (ctx, args) => {
  const subscriptionId = args.webhook === undefined ? undefined : await resolveSubscriptionId(args.webhook);
  const started = await replayAction({ since: args.since, subscriptionId }, ctx.actor);
  ctx.print(
    started.alreadyRunning
      ? `a replay is already running: following run ${started.runId}`
      : `run ${started.runId} started`,
  );
  return printOutcome(await followRun(started.runId, ctx), ctx);
});
