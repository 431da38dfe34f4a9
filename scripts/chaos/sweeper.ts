// A sweeper process for the chaos run's body store mode (scripts/chaos/bodies.ts): sweeps of
// unreferenced bodies one after another, CHAOS_SWEEP_GRACE_MS of grace (short: the run's minutes, not
// the hourly 6 h), CHAOS_SWEEP_PAUSE_MS between them, one JSON line per sweep on stdout; the harness
// SIGKILLs it at random moments (a sweep cut short anywhere: listing, between moving an object aside
// and putting it back, mid-delete) and starts it again. CHAOS_SWEEP_ONCE=1: one sweep, then exit.
// Not single-flight on purpose: a killed sweep's lease would block the next for its lease time.
import { sweepBodies } from "@/lib/bodies";
import { disconnectAll } from "@/lib/db";

const graceMs = Number(process.env.CHAOS_SWEEP_GRACE_MS ?? "15000");
const pauseMs = Number(process.env.CHAOS_SWEEP_PAUSE_MS ?? "300");
const once = process.env.CHAOS_SWEEP_ONCE === "1";

async function main() {
  for (;;) {
    const r = await sweepBodies({ graceMs });
    process.stdout.write(`${JSON.stringify(r)}\n`);
    if (once) break;
    await new Promise((res) => setTimeout(res, pauseMs));
  }
  await disconnectAll();
}

main().catch((err: unknown) => {
  console.error(`sweeper: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
