// A starter process of the caps race (scripts/chaos/caps.ts): Tally's own functions, as the API and the
// collections' schedule call them, on the race's database. Commands arrive as JSON lines on stdin; each
// answer is one line on stdout starting with "@caps ".
//   {"op":"setup","round":r,"collections":k,"urls":n,"monthly":m}  k collections of n URLs with a monthly
//        cap of m, each with two runs cancelled before they sent anything (no worker runs yet)
//   {"op":"start","round":r,"at":ms,"collections":[…],"standalone":{"urls":n,"maxTokens":c}}  at `at`, all at
//        once: every cancelled run retried, a manual start and a queued tick per collection, a capped run
//        (the tick is queued just before)
//   {"op":"clear","round":r,"collections":[…]}  the round's collections keep no queued tick
import { createInterface } from "node:readline";
import { cancelRun, createRun, parseValues, retryFailed } from "../../lib/runs";
import { createCollection, runCollectionNow, runDueCollections } from "../../lib/collections";
import { db, disconnectAll } from "../../lib/db";

type Setup = { op: "setup"; round: number; collections: number; urls: number; monthly: number };
type CollectionSet = { id: string; cancelled: string[] };
type Start = {
  op: "start";
  round: number;
  at: number;
  collections: CollectionSet[];
  standalone: { urls: number; maxTokens: number; batchSize: number };
};

const who = `starter ${process.pid}`;
const urls = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => `https://${tag}-${i % 4}.caps.example/p/${i}`);
const say = (o: unknown) => process.stdout.write(`@caps ${JSON.stringify(o)}\n`);

async function setup(c: Setup) {
  const out: CollectionSet[] = [];
  for (let k = 0; k < c.collections; k++) {
    const tag = `r${c.round}c${k}`;
    const col = await createCollection(
      { name: tag, list: parseValues(urls(tag, c.urls)), monthlyMaxTokens: c.monthly, overlap: "queue" },
      who,
    );
    const cancelled: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { runId } = await runCollectionNow(col.id, who);
      await cancelRun(runId, who);
      cancelled.push(runId);
    }
    out.push({ id: col.id, cancelled });
  }
  say({ op: "setup", round: c.round, collections: out });
}

async function start(s: Start) {
  // A tick that waited for the cancelled runs: the next pass of the schedule starts it (fireQueued).
  for (const c of s.collections)
    await db().collection.update({ where: { id: c.id }, data: { queuedFor: new Date(Date.now() - 60_000) } });
  await new Promise((r) => setTimeout(r, Math.max(0, s.at - Date.now())));
  const tries: Promise<string>[] = [];
  for (const c of s.collections) {
    for (const id of c.cancelled) tries.push(retryFailed(id, who).then(() => "retried"));
    tries.push(runCollectionNow(c.id, who).then(() => "manual"));
  }
  tries.push(
    runDueCollections().then((ticks) => (ticks.some((t) => t.outcome === "started") ? "tick" : "no tick")),
    createRun(
      parseValues(urls(`r${s.round}p${process.pid}`, s.standalone.urls)),
      { maxTokens: s.standalone.maxTokens, batchSize: s.standalone.batchSize, name: `r${s.round}p${process.pid}` },
      who,
    ).then(() => "standalone"),
  );
  const settled = await Promise.allSettled(tries);
  const started: Record<string, number> = {};
  const refused: string[] = [];
  for (const r of settled)
    if (r.status === "fulfilled") started[r.value] = (started[r.value] ?? 0) + 1;
    else refused.push(String(r.reason instanceof Error ? r.reason.message : r.reason).slice(0, 120));
  say({ op: "start", round: s.round, started, refused: refused.length, firstRefusal: refused[0] ?? null });
}

/** After a round: no tick stays queued behind its runs (it would start one unsampled, rounds later). */
async function clear(c: { op: "clear"; round: number; collections: CollectionSet[] }) {
  await db().collection.updateMany({
    where: { id: { in: c.collections.map((x) => x.id) } },
    data: { queuedFor: null },
  });
  say({ op: "clear", round: c.round });
}

async function main() {
  say({ op: "ready" });
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const cmd = JSON.parse(line) as
      Setup | Start | { op: "clear"; round: number; collections: CollectionSet[] } | { op: "stop" };
    try {
      if (cmd.op === "setup") await setup(cmd);
      else if (cmd.op === "start") await start(cmd);
      else if (cmd.op === "clear") await clear(cmd);
      else break;
    } catch (err) {
      say({ op: "error", error: err instanceof Error ? err.stack : String(err) });
    }
  }
  await disconnectAll();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
