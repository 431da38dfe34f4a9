// npm run rotate -- --webhook ID
// Rotates a subscription's secret, stores it, and after the settle delay replays the deliveries
// that got 401 in between.
import { followRun, parseCliArgs, printOutcome, runCli, UsageError } from "@/lib/cli";
import { resolveSubscriptionId, rotateAction } from "@/lib/subscriptions";

const USAGE = "npm run rotate -- --webhook SUBSCRIPTION_OR_WEBHOOK_ID";

function parse(): string {
  const args = parseCliArgs({ webhook: { type: "string" } }, USAGE);
  if (!args.webhook) throw new UsageError(`--webhook is required\nusage: ${USAGE}`);
  return args.webhook;
}

void runCli("rotate", parse, async (ctx, webhook) => {
  const id = await resolveSubscriptionId(webhook);
  const answer = await rotateAction(id, ctx.actor);
  const runId = String(answer.body.runId);
  const secret = typeof answer.body.secret === "string" ? answer.body.secret : null;
  if (answer.status !== 202) {
    // The platform already switched and shows the secret nowhere else: this terminal is the only copy.
    ctx.print(String(answer.body.message));
    if (secret) process.stdout.write(`\n  NEW SECRET (shown once, store it now): ${secret}\n\n`);
    return 1;
  }
  if (answer.body.alreadyRunning) ctx.print(`a rotation is already running: following run ${runId}`);
  else
    ctx.print(
      `secret rotated and stored (ends in …${secret ? secret.slice(-4) : "????"}); run ${runId} replays the 401s after the settle delay`,
    );
  return printOutcome(await followRun(runId, ctx), ctx);
});
