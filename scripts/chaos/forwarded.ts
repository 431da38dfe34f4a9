// The chaos run's outlet: a destination served by a local sink that fails a share of requests (500)
// and goes down for a while (connections refused), and the "forwarded" part of the ledger: every
// settled job's outcome event received at least once, correctly signed, and nothing else.
import { createHmac, timingSafeEqual } from "node:crypto";
import { type Sink, type SinkRequest, startSink, webhookId } from "../../lib/outbound";
import type { ChaosStore } from "./store";

export type Forwarded = {
  outcomes: number;
  requests: number;
  uniqueIds: number;
  missing: number;
  unexpected: number;
  badSignatures: number;
  answered500: number;
  refusedAttempts: number;
  outboundDeadLetters: number;
  missingIds: string[];
  ok: boolean;
};

export type ChaosSink = Sink & { outage(ms: number): Promise<void>; answered500: () => number; secret?: string };

/** The sink: `failRate` of requests answer 500 (seeded), the rest 200. */
export async function startChaosSink(random: () => number, failRate = 0.2): Promise<ChaosSink> {
  let failed = 0;
  const sink = await startSink(() => (random() < failRate ? (failed++, 500) : 200));
  return Object.assign(sink, {
    async outage(ms: number) {
      await sink.down();
      await new Promise((r) => setTimeout(r, ms));
      await sink.up();
    },
    answered500: () => failed,
  });
}

/** Standard Webhooks verification with the destination's secret, as a receiver does it. */
export function signatureOk(r: SinkRequest, secret: string): boolean {
  const id = String(r.headers["webhook-id"] ?? "");
  const ts = String(r.headers["webhook-timestamp"] ?? "");
  const expected = createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64"))
    .update(`${id}.${ts}.${r.body}`)
    .digest();
  return String(r.headers["webhook-signature"] ?? "")
    .split(" ")
    .some((s) => {
      const got = Buffer.from(s.replace(/^v1,/, ""), "base64");
      return s.startsWith("v1,") && got.length === expected.length && timingSafeEqual(got, expected);
    });
}

export async function computeForwarded(
  store: ChaosStore,
  sink: ChaosSink,
  secret: string,
  destinationId: string,
): Promise<Forwarded> {
  const count = async (sql: string) => Number((await store.all<{ n: number | string }>(sql, destinationId))[0]?.n ?? 0);
  const settled = await store.all<{ id: string; outcome: string }>(
    `SELECT "id", "outcome" FROM "Job" WHERE "outcome" IN ('stored','dead_lettered','cancelled')`,
  );
  const refusedAttempts = await count(
    `SELECT COUNT(*) n FROM "OutboundAttempt" WHERE "destinationId" = ? AND NOT "ok" AND "statusCode" IS NULL`,
  );
  const outboundDeadLetters = await count(
    `SELECT COUNT(*) n FROM "OutboundDelivery" WHERE "destinationId" = ? AND "status" = 'dead'`,
  );
  const expected = new Set(settled.map((j) => webhookId(j.id, j.outcome)));
  const good = sink.requests.filter((r) => signatureOk(r, secret));
  const received = new Set(good.map((r) => String(r.headers["webhook-id"])));
  const missingIds = [...expected].filter((id) => !received.has(id));
  const unexpected = [...received].filter((id) => !expected.has(id)).length;
  const badSignatures = sink.requests.length - good.length;
  return {
    outcomes: expected.size,
    requests: sink.requests.length,
    uniqueIds: received.size,
    missing: missingIds.length,
    unexpected,
    badSignatures,
    answered500: sink.answered500(),
    refusedAttempts,
    outboundDeadLetters,
    missingIds,
    ok: missingIds.length === 0 && unexpected === 0 && badSignatures === 0 && received.size === expected.size,
  };
}

export function printForwarded(f: Forwarded, log: (s: string) => void = console.log) {
  const rows: [string, number][] = [
    ["outcome events expected (stored/dead-lettered/cancelled)", f.outcomes],
    ["requests received by the sink", f.requests],
    ["unique webhook-ids received, signature valid", f.uniqueIds],
    ["answered 500 by the sink", f.answered500],
    ["attempts refused or timed out (sink down)", f.refusedAttempts],
    ["outbound dead letters", f.outboundDeadLetters],
    ["MISSING at the sink (must be 0)", f.missing],
    ["UNEXPECTED webhook-ids (must be 0)", f.unexpected],
    ["WRONG SIGNATURE (must be 0)", f.badSignatures],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  log("  forwarded:");
  for (const [k, v] of rows) log(`    ${k.padEnd(w)}  ${v}`);
  if (f.missingIds.length)
    log(`    missing: ${f.missingIds.slice(0, 10).join(", ")}${f.missingIds.length > 10 ? " …" : ""}`);
}
