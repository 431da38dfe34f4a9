// The chaos run's other destinations: a PostgreSQL sink (a database of the run's own, dropped after it)
// and a broker sink (NATS JetStream by default; Redis or RabbitMQ with --broker), each reached through a
// TCP proxy of the run's own (test/sink-services.ts) that refuses connections for a while mid-run. At the
// end each is read back and every outcome event counted: present exactly once in effect, none missing,
// nothing else. "Once in effect" per sink:
// - postgres: every result of a stored job is one row keyed (job_id, item_key); any other event is one
//   row of `{table}_events` keyed by event id. A key read back twice is a double (the primary keys make
//   a repeat an overwrite, so this must stay 0).
// - nats, redis: one message per event id in the stream itself (the stream's duplicate window, the
//   script's SET NX guard): a second message with the same id is a double.
// - rabbitmq: the broker may hold a re-sent message twice (dedupe is the consumer's, by messageId):
//   repeats are counted and reported, and the distinct messageIds must be the events, each once.
import { type SinkType, webhookId } from "../../lib/outbound";
import { REQUIRE_SERVICES, SERVICE_PORTS, SERVICES, type SinkService } from "../../test/sink-services";
import { answers } from "../../test/tcp-proxy";
import type { ChaosStore } from "./store";

export const BROKERS = ["nats", "redis", "rabbitmq", "none"] as const;
export type Broker = (typeof BROKERS)[number];

export type SinkTally = {
  type: SinkType;
  /** Why the sink was left out of the run (its service did not answer); null when it ran. */
  skipped: string | null;
  /** Outcome events expected (stored, dead-lettered, cancelled) and how many of them are in effect. */
  events: number;
  present: number;
  missing: number;
  /** Keys held more than once where the sink itself must keep one (postgres, nats, redis). */
  doubled: number;
  /** Extra copies a consumer drops by messageId (rabbitmq): reported, not a failure. */
  repeats: number;
  /** Keys read back that belong to no expected event. */
  unexpected: number;
  /** Rows or messages read back. */
  held: number;
  failedAttempts: number;
  missingIds: string[];
  ok: boolean;
};

export type ChaosSinks = {
  /** What to register through POST /api/destinations, one per sink that runs. */
  destinations: { type: SinkType; config: Record<string, unknown> }[];
  /** Notes the destination id Tally gave a sink (for its attempts in the ledger). */
  registered(type: SinkType, id: string): void;
  /**
   * Every sink's connections refused for `ms`, then back; longer (up to OUTAGE_EXTRA_MS) until each
   * sink has failed at least once, so the run always tests what it claims.
   */
  outage(ms: number, store: ChaosStore): Promise<void>;
  tally(store: ChaosStore): Promise<SinkTally[]>;
  close(): Promise<void>;
};

/** The postgres sink and the broker's, each skipped loudly when its service does not answer. */
export async function startChaosSinks(o: {
  broker: Broker;
  postgresAdminUrl: string;
  log: (s: string) => void;
}): Promise<ChaosSinks> {
  const types: SinkType[] = o.broker === "none" ? ["postgres"] : ["postgres", o.broker];
  const running = new Map<SinkType, SinkService>();
  const skipped = new Map<SinkType, string>();
  const ids = new Map<SinkType, string>();
  for (const type of types) {
    const admin = new URL(o.postgresAdminUrl);
    const [host, port] =
      type === "postgres" ? [admin.hostname, Number(admin.port || 5432)] : ["127.0.0.1", SERVICE_PORTS[type as "nats"]];
    const why = (await answers(port, host))
      ? await SERVICES[type]({ postgresAdminUrl: o.postgresAdminUrl }).then(
          (svc) => (running.set(type, svc), null),
          (err: unknown) => (err instanceof Error ? err.message : String(err)),
        )
      : `nothing answers at ${host}:${port}`;
    if (!why) continue;
    if (REQUIRE_SERVICES) throw new Error(`the ${type} sink's service is required (TALLY_REQUIRE_POSTGRES=1): ${why}`);
    skipped.set(type, why);
    o.log(`\nchaos: ${type.toUpperCase()} SINK SKIPPED: ${why.toUpperCase()}. THE RUN GOES ON WITHOUT IT.\n`);
  }
  return {
    destinations: [...running.values()].map((s) => ({ type: s.type, config: s.config })),
    registered: (type, id) => void ids.set(type, id),
    async outage(ms, store) {
      await Promise.all([...running.values()].map((s) => s.proxy.down()));
      await new Promise((r) => setTimeout(r, ms));
      // On a loaded machine a sink may have had nothing due in the window (its items in a backoff,
      // its events not yet settled): seen once in CI, a NATS sink with no failed attempt at all.
      const deadline = Date.now() + OUTAGE_EXTRA_MS;
      const failedOnce = async (type: SinkType) => {
        const [row] = await store.all<{ n: number | string }>(
          `SELECT COUNT(*) n FROM "OutboundAttempt" WHERE "destinationId" = ? AND NOT "ok"`,
          ids.get(type) ?? "",
        );
        return Number(row?.n ?? 0) > 0;
      };
      while (Date.now() < deadline && !(await Promise.all([...running.keys()].map(failedOnce))).every(Boolean))
        await new Promise((r) => setTimeout(r, 250));
      await Promise.all([...running.values()].map((s) => s.proxy.up()));
    },
    async tally(store) {
      const expected = await expectedEvents(store);
      return Promise.all(
        types.map((type) => {
          const svc = running.get(type);
          return svc
            ? tallySink(svc, expected, store, ids.get(type) ?? "")
            : Promise.resolve(skippedTally(type, skipped.get(type) ?? ""));
        }),
      );
    },
    async close() {
      await Promise.allSettled([...running.values()].map((s) => s.close()));
    },
  };
}

/** How much longer an outage may last for a sink that has not failed yet. */
const OUTAGE_EXTRA_MS = 20_000;

/** Each outcome event Tally recorded: its id and, for a stored job, its result keys `job|item`. */
export type Expected = { id: string; rows: string[] }[];

/** Every outcome event Tally recorded, with the result keys a row-keeping sink holds for it. */
async function expectedEvents(store: ChaosStore): Promise<Expected> {
  const settled = await store.all<{ id: string; outcome: string }>(
    `SELECT "id", "outcome" FROM "Job" WHERE "outcome" IN ('stored','dead_lettered','cancelled')`,
  );
  const rows = new Map<string, string[]>();
  for (const r of await store.all<{ jobId: string; itemKey: string }>(
    `SELECT r."jobId", r."itemKey" FROM "Result" r JOIN "Job" j ON j."id" = r."jobId" WHERE j."outcome" = 'stored'`,
  ))
    rows.set(r.jobId, [...(rows.get(r.jobId) ?? []), `${r.jobId}|${r.itemKey}`]);
  return settled.map((j) => ({
    id: webhookId(j.id, j.outcome),
    rows: j.outcome === "stored" ? (rows.get(j.id) ?? []) : [],
  }));
}

async function tallySink(svc: SinkService, expected: Expected, store: ChaosStore, destinationId: string) {
  const [failed] = await store.all<{ n: number | string }>(
    `SELECT COUNT(*) n FROM "OutboundAttempt" WHERE "destinationId" = ? AND NOT "ok"`,
    destinationId,
  );
  return {
    type: svc.type,
    skipped: null,
    failedAttempts: Number(failed?.n ?? 0),
    ...judgeSink(expected, await svc.effect(), svc),
  } satisfies SinkTally;
}

/**
 * The verdict on what one sink holds (`held`: row keys `job|item` and event ids, or message ids, as read
 * back, repeats included) against the events Tally recorded.
 */
export function judgeSink(
  expected: Expected,
  held: string[],
  sink: Pick<SinkService, "keeps" | "consumerDedupes">,
): Omit<SinkTally, "type" | "skipped" | "failedAttempts"> {
  const seen = new Map<string, number>();
  for (const k of held) seen.set(k, (seen.get(k) ?? 0) + 1);
  // A database keeps a stored job's results as rows; an event without results, and every event in a
  // broker, is kept under its id.
  const keysOf = (e: Expected[number]) => (sink.keeps === "rows" && e.rows.length > 0 ? e.rows : [e.id]);
  const wanted = new Set(expected.flatMap(keysOf));
  const missingIds = expected.filter((e) => keysOf(e).some((k) => !seen.has(k))).map((e) => e.id);
  const extra = [...seen.values()].reduce((a, n) => a + n - 1, 0);
  const doubled = sink.consumerDedupes ? 0 : [...seen.values()].filter((n) => n > 1).length;
  const unexpected = [...seen.keys()].filter((k) => !wanted.has(k)).length;
  return {
    events: expected.length,
    present: expected.length - missingIds.length,
    missing: missingIds.length,
    doubled,
    repeats: sink.consumerDedupes ? extra : 0,
    unexpected,
    held: held.length,
    missingIds,
    ok: missingIds.length === 0 && doubled === 0 && unexpected === 0,
  };
}

function skippedTally(type: SinkType, why: string): SinkTally {
  return {
    type,
    skipped: why,
    events: 0,
    present: 0,
    missing: 0,
    doubled: 0,
    repeats: 0,
    unexpected: 0,
    held: 0,
    failedAttempts: 0,
    missingIds: [],
    ok: true,
  };
}

const n = (x: number) => x.toLocaleString("en-US");

/** One line per sink: the ledger's verdict on it. */
export function printSinks(sinks: SinkTally[], log: (s: string) => void = console.log) {
  log("  sinks (every outcome event once in effect; MISSING, DOUBLED and UNEXPECTED must be 0):");
  for (const s of sinks) {
    if (s.skipped) {
      log(`    ${s.type.padEnd(9)} SKIPPED: ${s.skipped}`);
      continue;
    }
    const kept = s.type === "postgres" ? "rows" : "messages";
    log(
      `    ${s.type.padEnd(9)} ${n(s.present)} of ${n(s.events)} events in effect (${n(s.held)} ${kept} read back` +
        `${s.repeats ? `, ${n(s.repeats)} repeat${s.repeats === 1 ? "" : "s"} the consumer drops by messageId` : ""}), ` +
        `${n(s.failedAttempts)} failed attempts; MISSING ${s.missing}, DOUBLED ${s.doubled}, UNEXPECTED ${s.unexpected}`,
    );
    if (s.missingIds.length)
      log(`      missing: ${s.missingIds.slice(0, 10).join(", ")}${s.missingIds.length > 10 ? " …" : ""}`);
  }
}
