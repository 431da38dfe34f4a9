// Webhook traffic over the inbound log's retention window (14 days): the subscriptions, their
// rotations, every request the receiver answered (mostly 200 accepted or duplicate, some 401 — in
// bursts right after each rotation — 400, 404 and 413), and the platform's own delivery log mirror.
import type { JobsSeeded, Kind, SeedCtx } from "./jobs";
import { JOB_SPACE, JOB_SPAN_MS, KINDS, SUBSCRIPTION_FOR } from "./jobs";
import { at, DAY, idFor, inChunks, rng, weighted } from "./gen";

const DELIVERY_SPACE = 2;
const PLATFORM_SPACE = 3;
const SPAN_MS = 14 * DAY;
const SPIKE_MS = 10 * 60_000;
const OLD = "large-old";

const pickAnswer = weighted([
  ["accepted", 85],
  ["duplicate", 8],
  ["ignored", 0.4],
  ["bad_signature", 3.5],
  ["bad_request", 1.5],
  ["unknown_subscription", 0.7],
  ["too_large", 0.3],
  ["not_recorded", 0.1],
] as const);
const FAILURES = ["signature_mismatch", "missing_signature", "malformed_signature"] as const;

/** Rotations (subscription, when): three old ones and one 25 minutes ago, so the 401 chart has a live spike. */
function rotations(now: number): Array<{ sub: string; at: number }> {
  return [
    { sub: SUBSCRIPTION_FOR.extract, at: now - 12 * DAY },
    { sub: SUBSCRIPTION_FOR.batch, at: now - 6 * DAY - 3 * 3_600_000 },
    { sub: SUBSCRIPTION_FOR.crawl, at: now - 2 * DAY },
    { sub: SUBSCRIPTION_FOR.extract, at: now - 25 * 60_000 },
  ];
}

export function seedSubscriptions(ctx: SeedCtx): Record<string, number> {
  const { db, now } = ctx;
  const sub =
    db.prepare(`INSERT OR IGNORE INTO "Subscription" ("id","platformId","eventType","url","description","isActive","scheme","secret","rotatedAt","createdAt","updatedAt")
    VALUES (?,?,?,?,?,?,'hmac',?,?,?,?)`);
  const rot = db.prepare(`INSERT INTO "SecretRotation" ("subscriptionId","source","actor","at") VALUES (?,?,?,?)`);
  const rots = rotations(now);
  let n = 0;
  for (const kind of [...KINDS, "old"] as const) {
    const id = kind === "old" ? OLD : SUBSCRIPTION_FOR[kind];
    const last = rots.filter((x) => x.sub === id).at(-1)?.at ?? null;
    n += sub.run(
      id,
      `wh_${id}`,
      kind === "old" ? "extract_completed" : `${kind}_completed`,
      `https://tally.example.com/webhooks/geonode/${id}`,
      "seeded by seed:large",
      kind === "old" ? 0 : 1,
      `whsec_seed_${id}_${ctx.salt[1].toString(16)}`,
      last === null ? null : at(last),
      at(now - 40 * DAY),
      at(last ?? now - 40 * DAY),
    ).changes;
  }
  for (const x of rots) rot.run(x.sub, x.at > now - DAY ? "set_elsewhere" : "rotated", "operator", at(x.at));
  return { Subscription: n, SecretRotation: rots.length };
}

export function seedInbound(ctx: SeedCtx, jobs: JobsSeeded, n: number): number {
  const { db, salt, now } = ctx;
  const r = rng(salt[0] ^ 0x1b0d);
  const start = now - SPAN_MS;
  const jobStart = now - JOB_SPAN_MS;
  const rots = rotations(now);
  const row =
    db.prepare(`INSERT INTO "InboundDelivery" ("receivedAt","subscriptionId","deliveryId","eventType","jobId","status","reason","latencyMs","bodyBytes")
    VALUES (?,?,?,?,?,?,?,?,?)`);
  return inChunks(db, n, ctx.chunk, (i) => {
    const t = start + ((i + r()) * SPAN_MS) / n;
    // The job that settled about now; a duplicate repeats one from a little earlier.
    let answer = pickAnswer(r());
    const j = Math.max(
      0,
      Math.min(
        jobs.jobs - 1,
        Math.floor(((t - 30_000 - jobStart) / JOB_SPAN_MS) * jobs.jobs) -
          (answer === "duplicate" ? Math.floor(r() * 200) : 0),
      ),
    );
    const kind: Kind = KINDS[jobs.kindOf[j]] ?? "extract";
    const sub = r() < 0.004 ? OLD : SUBSCRIPTION_FOR[kind];
    // Right after a rotation the platform still signs with the old secret for a while.
    if (rots.some((x) => x.sub === sub && t >= x.at && t < x.at + SPIKE_MS) && r() < 0.7) answer = "bad_signature";
    if (sub === OLD) answer = "bad_signature";
    const verified = answer === "accepted" || answer === "duplicate" || answer === "ignored";
    const [status, reason]: [number, string] =
      answer === "bad_signature"
        ? [401, FAILURES[Math.floor(r() * r() * 3)]]
        : answer === "bad_request"
          ? [400, "body is not a JSON object"]
          : answer === "unknown_subscription"
            ? [404, "unknown subscription key"]
            : answer === "too_large"
              ? [413, "body over the size limit"]
              : answer === "not_recorded"
                ? [503, "database busy"]
                : [200, answer === "ignored" ? "unknown event type" : answer];
    row.run(
      at(t),
      answer === "unknown_subscription" ? null : sub,
      verified ? idFor(salt, DELIVERY_SPACE, j) : null,
      verified ? `${kind}_completed` : null,
      verified ? idFor(salt, JOB_SPACE, j) : null,
      status,
      reason,
      Math.round(1 + r() ** 3 * (status === 200 ? 60 : 5)),
      status === 413 ? 1_048_577 + Math.floor(r() * 4_000_000) : 350 + Math.floor(r() * 400),
    );
  });
}

const pickPlatform = weighted([
  ["success", 93],
  ["failed", 4],
  ["abandoned", 0.5],
  ["pending", 0.3],
  ["timeout", 2.2],
] as const);

export function seedPlatform(ctx: SeedCtx, jobs: JobsSeeded, n: number): number {
  const { db, salt, now } = ctx;
  const r = rng(salt[0] ^ 0x91a7);
  const start = now - SPAN_MS;
  const jobStart = now - JOB_SPAN_MS;
  const row =
    db.prepare(`INSERT INTO "PlatformDelivery" ("id","subscriptionId","webhookId","eventType","jobId","attemptNumber","status","httpStatus","deliveredAt","createdAt","syncedAt")
    VALUES (?,?,?,?,?,?,?,?,?,?,?)`);
  return inChunks(db, n, ctx.chunk, (i) => {
    const t = start + ((i + r()) * SPAN_MS) / n;
    const j = Math.max(0, Math.min(jobs.jobs - 1, Math.floor(((t - 20_000 - jobStart) / JOB_SPAN_MS) * jobs.jobs)));
    const kind: Kind = KINDS[jobs.kindOf[j]] ?? "extract";
    const sub = SUBSCRIPTION_FOR[kind];
    const s = pickPlatform(r());
    const http =
      s === "success"
        ? 200
        : s === "failed"
          ? r() < 0.6
            ? 401
            : r() < 0.5
              ? 500
              : 503
          : s === "abandoned"
            ? 401
            : null;
    const status = s === "timeout" ? "failed" : s;
    row.run(
      idFor(salt, PLATFORM_SPACE, i),
      sub,
      `wh_${sub}`,
      `${kind}_completed`,
      idFor(salt, JOB_SPACE, j),
      s === "success" && r() < 0.05 ? 2 : s === "abandoned" ? 5 : 1,
      status,
      http,
      http === null ? null : at(t + 50 + r() * 400),
      at(t),
      at(t + 60_000),
    );
  });
}
