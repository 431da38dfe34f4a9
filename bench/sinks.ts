// tsx --conditions=react-server bench/sinks.ts [--events 2000] [--rounds 2] [--types postgres,redis] [--result FILE]
// Events per second into each sink type through Tally (outbox rows already written, then the real
// worker with TALLY_WORKER_CONCURRENCY draining the forward_event items in sink batches: claim, build
// the events, write, record the attempts), next to a bare loop in the same run: the same sink module
// and client library writing the same rows or messages one after the other, with no queue, outbox or
// record (the reference). For honesty, also a bare loop of batches of Tally's size (deliverMany,
// SINK_BATCH events at a time). All go to the same target through the same local TCP proxy
// (test/sink-services.ts). A service that does not answer is left out with a note. Goal: Tally at least
// 0.5× the one-at-a-time bare loop. Each type runs --rounds rounds of all three, and each figure is the
// best of its rounds: on a shared two-core machine one round's figure is often another process's doing.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { parseConfig, setConfigForTests } from "@/lib/config";
import { db, dbReady, disconnectAll, transaction } from "@/lib/db";
import { settleOutcome } from "@/lib/jobs/outcomes";
import { createDestination } from "@/lib/outbound/destinations";
import { forwardEventKind } from "@/lib/outbound/handler";
import { SINK_BATCH } from "@/lib/outbound/sink-batch";
import { webhookId } from "@/lib/outbound/outbox";
import { SINK_TYPES, type SinkType } from "@/lib/outbound/sink-config";
import { deliverOne, openSink, type SinkEvent } from "@/lib/outbound/sinks";
import { closeAllSinks } from "@/lib/outbound/sinks/pool";
import { createRegistry } from "@/lib/queue";
import { createWorker } from "@/lib/worker/worker";
import { SERVICES, serviceAnswers } from "../test/sink-services";
import { machine } from "./common";

const { values } = parseArgs({
  options: {
    events: { type: "string", default: "2000" },
    rounds: { type: "string", default: "2" },
    types: { type: "string" },
    result: { type: "string" },
  },
  strict: true,
});
const N = Number(values.events);
const ROUNDS = Math.max(1, Number(values.rounds));
const WARM_UP = 200;
const say = (s: string) => process.stdout.write(`${s}\n`);

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tally-bench-sinks-"));
  const file = path.join(dir, "tally.db");
  execFileSync("npx", ["prisma", "migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: `file:${file}` },
    stdio: "pipe",
  });
  const config = parseConfig({
    NODE_ENV: "production",
    DATABASE_URL: `file:${file}`,
    TALLY_OPERATOR_PASSWORD: "bench password here",
    TALLY_SESSION_SECRET: "bench-session-secret-0123456789abcdef0123",
    TALLY_ALLOW_PRIVATE_DESTINATIONS: "127.0.0.1",
    TALLY_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "error",
    // The worker's default unless BENCH_CONCURRENCY says otherwise.
    ...(process.env.BENCH_CONCURRENCY ? { TALLY_WORKER_CONCURRENCY: process.env.BENCH_CONCURRENCY } : {}),
  });
  setConfigForTests(config);
  await dbReady();

  const MARKDOWN = `# A scraped page\n\n${"Some text of a page, about a kilobyte in all. ".repeat(22)}`;

  /** N jobs stored with one result each, their outbox rows written for the enabled destination. */
  async function settleJobs(prefix: string): Promise<void> {
    for (let i = 0; i < N; i++) {
      const id = `${prefix}-${i}`;
      await db().job.create({ data: { id, kind: "extract", url: `https://example.com/${i}` } });
      await db().result.create({
        data: { jobId: id, itemKey: "0", url: `https://example.com/${i}`, format: "markdown", markdown: MARKDOWN },
      });
      await transaction((tx) => settleOutcome(tx, id, "stored"));
    }
  }

  /** The event Tally sends for one of those jobs: its result as a row, and in the body's data.results. */
  function bareEvent(jobId: string): SinkEvent {
    const now = new Date();
    const result = {
      itemKey: "0",
      url: `https://example.com/${jobId}`,
      status: "completed",
      format: "markdown",
      markdown: MARKDOWN,
      html: null,
      metadata: null,
      errorCode: null,
      errorMessage: null,
      tokensCharged: 0,
      storedAt: now,
    };
    const data = { jobId, kind: "extract", outcome: "stored", url: result.url, resultCount: 1, results: [result] };
    return {
      id: webhookId(jobId, "stored"),
      type: "job.stored",
      jobId,
      outcome: "stored",
      createdAt: now,
      body: JSON.stringify({ type: "job.stored", timestamp: now.toISOString(), data }),
      results: [result],
    };
  }

  type Row = {
    type: SinkType;
    events: number;
    tallyPerSecond: number;
    barePerSecond: number;
    ratio: number;
    bareBatchedPerSecond: number;
    rounds: number;
  };
  const rows: Row[] = [];
  const skipped: string[] = [];
  say(machine());
  say(
    `${N} job.stored events (one result of ~1 KB each) per sink type and round, best of ${ROUNDS} rounds; worker concurrency ${config.TALLY_WORKER_CONCURRENCY}`,
  );

  const types = values.types ? SINK_TYPES.filter((t) => values.types?.split(",").includes(t)) : SINK_TYPES;
  for (const type of types) {
    if (!(await serviceAnswers(type))) {
      skipped.push(type);
      continue;
    }
    const svc = await SERVICES[type]();
    try {
      // RabbitMQ's queue starts unbound (the tests' "refused" state): bind it.
      if (type === "rabbitmq") await svc.allow();
      const dest = await createDestination({ type, config: svc.config, events: ["job.stored"] }, "bench");
      // Warm the service and the client's code first, unmeasured, one at a time and in batches: whatever
      // ran first was measured cold (s3rver, in this process, took 4× longer for its first 2,000 PUTs).
      const warm = openSink(type, svc.config, { timeoutMs: 10_000 });
      for (let i = 0; i < WARM_UP; i++) await deliverOne(warm, bareEvent(`${type}-warm-${i}`));
      await warm.deliverMany(Array.from({ length: WARM_UP }, (_, i) => bareEvent(`${type}-warm-batch-${i}`)));
      await warm.close();
      const bare = openSink(type, svc.config, { timeoutMs: 10_000 });
      let tallyS = Infinity;
      let bareS = Infinity;
      let batchedS = Infinity;
      for (let round = 0; round < ROUNDS; round++) {
        await settleJobs(`${type}-tally-${round}`);
        const worker = createWorker({
          registry: createRegistry([forwardEventKind()]),
          concurrency: config.TALLY_WORKER_CONCURRENCY,
          leaseMs: 30_000,
          idleMs: 5,
        });
        let started = performance.now();
        await worker.drain();
        const t = (performance.now() - started) / 1000;
        const delivered = await db().outboundDelivery.count({ where: { destinationId: dest.id, status: "delivered" } });
        if (delivered !== N * (round + 1)) throw new Error(`${type}: ${delivered} of ${N * (round + 1)} delivered`);

        const events = Array.from({ length: N }, (_, i) => bareEvent(`${type}-bare-${round}-${i}`));
        started = performance.now();
        for (const e of events) await deliverOne(bare, e);
        const b = (performance.now() - started) / 1000;
        // The same client with Tally's batch size, no queue or record: what batching alone gives.
        const batched = Array.from({ length: N }, (_, i) => bareEvent(`${type}-batched-${round}-${i}`));
        started = performance.now();
        for (let i = 0; i < N; i += SINK_BATCH) {
          const failed = (await bare.deliverMany(batched.slice(i, i + SINK_BATCH))).find((e) => e !== null);
          if (failed) throw failed;
        }
        const bb = (performance.now() - started) / 1000;
        say(
          `  ${type} round ${round + 1}: Tally ${Math.round(N / t)} · bare ${Math.round(N / b)} · bare batched ${Math.round(N / bb)} events/s (${os.loadavg()[0].toFixed(2)} load)`,
        );
        tallyS = Math.min(tallyS, t);
        bareS = Math.min(bareS, b);
        batchedS = Math.min(batchedS, bb);
      }
      await db().destination.update({ where: { id: dest.id }, data: { enabled: false } });
      await bare.close();

      const row = {
        type,
        events: N,
        tallyPerSecond: Math.round(N / tallyS),
        barePerSecond: Math.round(N / bareS),
        ratio: Math.round((bareS / tallyS) * 100) / 100,
        bareBatchedPerSecond: Math.round(N / batchedS),
        rounds: ROUNDS,
      };
      rows.push(row);
      say(
        `${type.padEnd(9)} Tally ${String(row.tallyPerSecond).padStart(6)} events/s · bare loop ${String(row.barePerSecond).padStart(6)} events/s · bare batched loop ${String(row.bareBatchedPerSecond).padStart(6)} events/s · Tally ÷ bare loop ${row.ratio}×`,
      );
    } finally {
      await closeAllSinks();
      await svc.close();
    }
  }
  if (skipped.length) say(`left out (service not answering): ${skipped.join(", ")}`);
  if (values.result) writeFileSync(values.result, JSON.stringify({ rows, skipped }));
  await disconnectAll();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
