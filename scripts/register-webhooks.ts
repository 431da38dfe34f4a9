// npm run register-webhooks
// Registers the missing subscriptions (extract, batch, crawl) at TALLY_PUBLIC_URL and stores their secrets.
import { parseCliArgs, runCli } from "@/lib/cli";
import { registerAction } from "@/lib/subscriptions";

void runCli(
  "register-webhooks",
  () => parseCliArgs({}, "npm run register-webhooks"),
  async (ctx) => {
    const r = await registerAction(ctx.actor);
    ctx.print(
      `registered: ${r.registered.join(", ") || "none"}; repaired: ${r.repaired.join(", ") || "none"}; unchanged: ${r.unchanged.join(", ") || "none"}`,
    );
    for (const s of r.items) {
      ctx.print(
        `${s.eventType.padEnd(16)} ${s.isActive ? "active  " : "inactive"} ${s.url} secret …${s.secretLast4 ?? "????"}`,
      );
    }
    return 0;
  },
);
