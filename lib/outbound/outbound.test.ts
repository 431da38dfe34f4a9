// Forwarding on a real SQLite database with a real HTTP sink: the outbox commits with the outcome,
// every outcome is delivered signed (retries visible as attempt rows), a sink that is down loses
// nothing, a disabled destination gets nothing, inline results vs resultsUrl, replay, dead letters.
import { createServer as createNetServer, type Server, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, transaction } from "@/lib/db";
import { settleOutcome } from "@/lib/jobs/outcomes";
import { claim, createRegistry, runItem } from "@/lib/queue";
import { verifyDelivery } from "@/lib/signing/signature";
import { createTestDb, type TestDb } from "@/test/db";
import { createDestinationSchema, deliveryListQuerySchema } from "./contracts";
import { createDestination, ensureDefaultDestination, listDestinations, setDestinationEnabled } from "./destinations";
import { forwardEventKind } from "./handler";
import { listDeliveries } from "./list";
import { forwardEventPayload, webhookId } from "./outbox";
import { pruneHistory } from "@/lib/worker/retention";
import { replayDelivery, replayDestinationSince } from "./replay";
import { startSink, type Sink, type SinkRequest } from "./test-sink";

let t: TestDb;
let sink: Sink;
const registry = createRegistry([forwardEventKind()]);

beforeAll(async () => {
  t = await createTestDb({
    TALLY_FORWARD_RETRY_INITIAL_MS: "10",
    TALLY_FORWARD_RETRY_MAX_MS: "40",
    TALLY_FORWARD_MAX_BYTES: "2000",
    TALLY_FORWARD_TIMEOUT_MS: "2000",
    TALLY_PUBLIC_URL: "https://tally.example",
    // The test sinks listen on 127.0.0.1: a private address destinations may use only when allowed.
    TALLY_ALLOW_PRIVATE_DESTINATIONS: "127.0.0.1",
  });
});
afterAll(() => t?.cleanup());
beforeEach(async () => {
  sink = await startSink();
});
afterEach(async () => {
  await sink.close();
  for (const table of [
    "outboundAttempt",
    "outboundDelivery",
    "destination",
    "queueItem",
    "result",
    "jobEvent",
    "deadLetter",
    "job",
  ] as const) {
    await (db()[table] as unknown as { deleteMany(): Promise<unknown> }).deleteMany();
  }
});

let n = 0;
async function settle(
  outcome: "stored" | "dead_lettered" | "cancelled" | "resubmitted",
  markdown = "# hello",
): Promise<string> {
  const id = `job-${++n}-${outcome}`;
  await db().job.create({ data: { id, kind: "extract", url: `https://example.com/${n}` } });
  if (outcome === "stored")
    await db().result.create({
      data: { jobId: id, itemKey: "0", url: `https://example.com/${n}`, format: "markdown", markdown },
    });
  await transaction((tx) => settleOutcome(tx, id, outcome));
  return id;
}

/**
 * Works the queue until nothing is live, until `maxIdleRounds` claims found nothing due, or until
 * `enough()` holds (a sink that is down: its deliveries retry for as long as one lets them).
 */
async function drain(maxIdleRounds = 2000, enough?: () => Promise<boolean>): Promise<void> {
  for (let idle = 0; idle < maxIdleRounds;) {
    const items = await claim({ owner: "test", limit: 10, leaseMs: 10_000 });
    for (const item of items) await runItem(registry, item, { timeoutMs: 10_000 });
    if (enough && (await enough())) return;
    if (items.length > 0) continue;
    if ((await db().queueItem.count({ where: { state: { in: ["ready", "leased"] } } })) === 0) return;
    idle++;
    await new Promise((r) => setTimeout(r, 5));
  }
}

const verified = (r: SinkRequest, secret: string | undefined) =>
  verifyDelivery(
    { kind: "standard", toleranceSeconds: 300 },
    [String(secret)],
    Buffer.from(r.body),
    { get: (h) => (r.headers[h] as string | undefined) ?? null },
    Date.now() / 1000,
  ).ok;

describe("forwarding to a sink", () => {
  it("delivers every outcome once signed after a 500 on each first attempt; resubmitted is no event", async () => {
    sink.setAnswer((_r, seen) => (seen === 0 ? 500 : 200));
    const dest = await createDestination(
      { url: sink.url, events: ["job.stored", "job.dead_lettered", "job.cancelled"] },
      "test",
    );
    const ids = [
      await settle("stored"),
      await settle("dead_lettered"),
      await settle("cancelled"),
      await settle("resubmitted"),
    ];
    await drain();

    const byId = new Map(sink.requests.map((r) => [String(r.headers["webhook-id"]), r]));
    expect(byId.size).toBe(3);
    expect(sink.requests).toHaveLength(6);
    for (const r of sink.requests) expect(verified(r, dest.secret)).toBe(true);
    expect(verified(sink.requests[0], "whsec_" + Buffer.alloc(32, 7).toString("base64"))).toBe(false);
    const types = [...byId.values()].map((r) => JSON.parse(r.body).type).sort();
    expect(types).toEqual(["job.cancelled", "job.dead_lettered", "job.stored"]);
    expect([...byId.keys()].sort()).toEqual(
      ids
        .slice(0, 3)
        .map((id, i) => webhookId(id, ["stored", "dead_lettered", "cancelled"][i]))
        .sort(),
    );

    const deliveries = await db().outboundDelivery.findMany({ include: { attemptLog: { orderBy: { id: "asc" } } } });
    expect(deliveries).toHaveLength(3);
    for (const d of deliveries) {
      expect(d).toMatchObject({ status: "delivered", attempts: 2, lastStatusCode: 200 });
      expect(d.attemptLog.map((a) => [a.attempt, a.ok, a.statusCode])).toEqual([
        [1, false, 500],
        [2, true, 200],
      ]);
      expect(d.attemptLog[0].error).toMatch(/^HTTP 500/);
    }
  });

  it("sends a webhook's deliveries one per item, never as a sink batch", async () => {
    await createDestination({ url: sink.url, events: ["job.stored"] }, "test");
    for (let i = 0; i < 5; i++) await settle("stored");
    const [item] = await claim({ owner: "test", limit: 1, leaseMs: 10_000 });
    expect(await runItem(registry, item, { timeoutMs: 10_000 })).toBe("acked");
    expect(sink.requests).toHaveLength(1);
    const rows = await db().outboundDelivery.findMany({ orderBy: { id: "asc" } });
    expect(rows.map((d) => d.status)).toEqual(["delivered", "pending", "pending", "pending", "pending"]);
    expect(await db().queueItem.count({ where: { state: "ready" } })).toBe(4);
  });

  it("loses nothing while the sink is down, and delivers once it is back", async () => {
    const dest = await createDestination({ url: sink.url, events: ["job.stored", "job.cancelled"] }, "test");
    await sink.down();
    const ids = [await settle("stored"), await settle("cancelled")];
    // Both refused twice (connection refused: no status) is enough to show they wait and retry.
    await drain(2000, async () => (await db().outboundAttempt.count({ where: { ok: false, statusCode: null } })) >= 4);
    const failing = await db().outboundDelivery.findMany();
    expect(failing.map((d) => d.status)).toEqual(["retrying", "retrying"]);
    expect(await db().outboundAttempt.count({ where: { ok: false, statusCode: null } })).toBeGreaterThanOrEqual(4);
    await sink.up();
    await drain();
    expect(new Set(sink.requests.map((r) => r.headers["webhook-id"]))).toEqual(
      new Set([webhookId(ids[0], "stored"), webhookId(ids[1], "cancelled")]),
    );
    for (const r of sink.requests) expect(verified(r, dest.secret)).toBe(true);
    expect((await db().outboundDelivery.findMany()).map((d) => d.status)).toEqual(["delivered", "delivered"]);
  });

  it("sends nothing to a disabled destination: queued events are skipped, new outcomes make no delivery", async () => {
    const dest = await createDestination({ url: sink.url, events: ["job.stored"] }, "test");
    await settle("stored");
    await setDestinationEnabled(dest.id, false, "test");
    await settle("stored");
    await drain();
    expect(sink.requests).toHaveLength(0);
    expect((await db().outboundDelivery.findMany()).map((d) => d.status)).toEqual(["skipped"]);
  });

  it("only sends the events a destination asked for", async () => {
    await createDestination({ url: sink.url, events: ["job.dead_lettered"] }, "test");
    await settle("stored");
    await settle("dead_lettered");
    await drain();
    expect(sink.requests.map((r) => JSON.parse(r.body).type)).toEqual(["job.dead_lettered"]);
  });
});

describe("the outbox", () => {
  it("commits the outbound item with the outcome, and rolls it back with it", async () => {
    await createDestination({ url: sink.url, events: ["job.stored"] }, "test");
    await db().job.create({ data: { id: "atomic-1", kind: "extract" } });
    await expect(
      transaction(async (tx) => {
        await settleOutcome(tx, "atomic-1", "stored");
        throw new Error("crash before commit");
      }),
    ).rejects.toThrow("crash before commit");
    expect(await db().outboundDelivery.count()).toBe(0);
    expect(await db().queueItem.count()).toBe(0);
    expect((await db().job.findUniqueOrThrow({ where: { id: "atomic-1" } })).outcome).toBe("pending");

    await transaction((tx) => settleOutcome(tx, "atomic-1", "stored"));
    const d = await db().outboundDelivery.findFirstOrThrow();
    expect(await db().queueItem.findFirstOrThrow()).toMatchObject({
      kind: "forward_event",
      dedupeKey: `forward:${d.id}`,
      state: "ready",
    });
  });
});

describe("the event body", () => {
  it("carries the results inline up to TALLY_FORWARD_MAX_BYTES, else a resultsUrl", async () => {
    await createDestination({ url: sink.url, events: ["job.stored"] }, "test");
    const small = await settle("stored", "short");
    const big = await settle("stored", "x".repeat(3000));
    await drain();
    const bodies = new Map(
      sink.requests.map((r) => {
        const b = JSON.parse(r.body);
        return [b.data.jobId, b];
      }),
    );
    expect(bodies.get(small)).toMatchObject({
      type: "job.stored",
      data: {
        jobId: small,
        kind: "extract",
        outcome: "stored",
        url: expect.any(String),
        results: [{ itemKey: "0", markdown: "short" }],
      },
    });
    expect(bodies.get(small).data.resultsUrl).toBeUndefined();
    expect(bodies.get(big).data).toMatchObject({ resultsUrl: `https://tally.example/api/jobs/${big}/results` });
    expect(bodies.get(big).data.results).toBeUndefined();
  });
});

describe("retry window, dead letters and replay", () => {
  it("dead-letters an event whose retry window is over, and a replay delivers it with the same webhook-id", async () => {
    sink.setAnswer(() => 503);
    const dest = await createDestination({ url: sink.url, events: ["job.stored"] }, "test");
    const id = await settle("stored");
    // The window starts at the first attempt; then it is cut short, as if a day had passed.
    for (const item of await claim({ owner: "test", limit: 1, leaseMs: 10_000 }))
      await runItem(registry, item, { timeoutMs: 10_000 });
    expect(await db().outboundDelivery.findFirstOrThrow()).toMatchObject({ status: "retrying", attempts: 1 });
    await db().outboundDelivery.updateMany({ data: { retryUntil: new Date(Date.now() + 50) } });
    await drain();
    const dead = await db().outboundDelivery.findFirstOrThrow();
    expect(dead.status).toBe("dead");
    expect(dead.attempts).toBeGreaterThanOrEqual(1);
    expect(dead.lastError).toMatch(/HTTP 503/);

    sink.setAnswer(() => 200);
    expect(await replayDestinationSince(dest.id, new Date(Date.now() - 60_000))).toEqual({ replayed: 1, skipped: 0 });
    await drain();
    expect(await db().outboundDelivery.findFirstOrThrow()).toMatchObject({ status: "delivered", replays: 1 });
    expect(new Set(sink.requests.map((r) => r.headers["webhook-id"]))).toEqual(new Set([webhookId(id, "stored")]));
    await expect(replayDelivery(dead.id)).rejects.toThrow(/delivered/);
  });
});

describe("retention", () => {
  it("prunes old attempts and finished deliveries, never failing or dead ones", async () => {
    sink.setAnswer((_r, seen) => (seen === 0 ? 500 : 200));
    await createDestination({ url: sink.url, events: ["job.stored", "job.cancelled"] }, "test");
    await settle("stored");
    await drain();
    await sink.down();
    await settle("cancelled");
    await drain(20);
    const later = new Date(Date.now() + (t.config.TALLY_HISTORY_RETENTION_DAYS + 1) * 86_400_000);
    const deleted = await pruneHistory({ now: later, pauseMs: 0 });
    expect(deleted).toMatchObject({ "outbound attempts": expect.any(Number), "finished outbound deliveries": 1 });
    expect((await db().outboundDelivery.findMany()).map((d) => d.status)).toEqual(["retrying"]);
    expect(await db().outboundAttempt.count()).toBe(0);
  });
});

describe("destinations", () => {
  it("validates input with reasons, masks secrets, and keeps the default in step with the environment", async () => {
    const bad = (body: unknown) =>
      createDestinationSchema
        .safeParse(body)
        .error?.issues.map((i) => i.message)
        .join("; ");
    expect(bad({ url: "ftp://x.example", events: ["job.stored"] })).toMatch(/http:\/\/ or https:\/\//);
    expect(bad({ url: "https://u:p@x.example", events: ["job.stored"] })).toMatch(/user name or password/);
    expect(bad({ url: "https://x.example", events: [] })).toMatch(/at least one/);
    expect(bad({ url: "https://x.example", events: ["job.stored", "job.stored"] })).toMatch(/repeat/);
    expect(bad({ url: "https://x.example", events: ["job.resubmitted"] })).toMatch(/one of/);
    expect(bad({ url: "https://x.example", events: ["job.stored"], secret: "whsec_abc" })).toMatch(/24 to 64/);
    expect(bad({ url: "https://x.example", events: ["job.stored"], secret: "hunter2" })).toMatch(/whsec_/);

    const created = await createDestination({ url: "https://a.example/hook", events: ["job.stored"] }, "test");
    expect(created.secret).toMatch(/^whsec_/);
    const listed = await listDestinations();
    expect(JSON.stringify(listed)).not.toContain(String(created.secret));
    expect(listed[0].secretLast4).toBe(String(created.secret).slice(-4));
    await expect(createDestination({ url: "https://a.example/hook", events: ["job.stored"] }, "test")).rejects.toThrow(
      /already sends/,
    );

    const secret = "whsec_" + Buffer.alloc(24, 1).toString("base64");
    await ensureDefaultDestination({
      ...t.config,
      TALLY_FORWARD_URL: "https://b.example/in",
      TALLY_FORWARD_SECRET: secret,
    });
    await setDestinationEnabled("dst_default", false, "op");
    await ensureDefaultDestination({
      ...t.config,
      TALLY_FORWARD_URL: "https://c.example/in",
      TALLY_FORWARD_SECRET: secret,
    });
    const def = (await listDestinations()).find((d) => d.id === "dst_default");
    expect(def).toMatchObject({
      url: "https://c.example/in",
      enabled: false,
      source: "config",
      events: ["job.stored", "job.dead_lettered", "job.cancelled"],
    });
  });
});

// Issue 38: a webhook whose path carries its key (Slack, Discord, Zapier) is listed with the path masked
// past its plain words, to every reader, in the destinations and the deliveries alike.
describe("a destination URL with a key in its path", () => {
  it("is never listed whole after creation", async () => {
    const token = "XyZ0aB1cD2eF3gH4iJ5kL6mN";
    const created = await createDestination(
      { url: `${sink.url}/services/T0A1B2C3D/B0E1F2G3H/${token}?channel=ops`, events: ["job.stored"] },
      "test",
    );
    await settle("stored");
    const listed = JSON.stringify(await listDestinations());
    const deliveries = await listDeliveries(deliveryListQuerySchema.parse({}), "viewer");
    expect(deliveries.items.length).toBeGreaterThan(0);
    for (const shown of [listed, JSON.stringify(deliveries), created.url]) {
      expect(shown).not.toContain(token);
      expect(shown).not.toContain("T0A1B2C3D");
      expect(shown).not.toContain("ops");
    }
    expect(created.url).toBe(`${sink.url}/services/••••${token.slice(-4)}?channel=••••`);
  });
});

// Issue 27, finding 2 (SSRF): a destination registered at run time may not reach a private address unless
// TALLY_ALLOW_PRIVATE_DESTINATIONS allows it, checked when it is saved (400) and again on the address
// connected to at every send (a recorded failure); the environment's destination stays the deployer's choice.
describe("the address guard on destinations (issue 27)", () => {
  const withoutAllowance = async <T>(f: () => Promise<T>): Promise<T> => {
    const before = t.config.TALLY_ALLOW_PRIVATE_DESTINATIONS;
    t.config.TALLY_ALLOW_PRIVATE_DESTINATIONS = undefined;
    try {
      return await f();
    } finally {
      t.config.TALLY_ALLOW_PRIVATE_DESTINATIONS = before;
    }
  };

  it("refuses a loopback, metadata or Tally URL when it is saved, and stores nothing", async () => {
    await withoutAllowance(async () => {
      for (const url of [
        sink.url,
        `http://localhost:${sink.port}/x`,
        "http://169.254.169.254/latest/meta-data",
        "http://2130706433/",
        "http://127.1:8080/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://0.0.0.0:4010/",
        "https://tally.example/api/jobs",
      ])
        await expect(createDestination({ url, events: ["job.stored"] }, "test"), url).rejects.toMatchObject({
          code: "bad_request",
          message: expect.stringMatching(/^Refused destination URL: /),
        });
    });
    expect(await db().destination.count()).toBe(0);
  });

  it("records a refused attempt when a saved destination's address is no longer allowed; the environment's is sent", async () => {
    const api = await createDestination({ url: sink.url, events: ["job.stored"] }, "test");
    const secret = `whsec_${Buffer.alloc(32, 5).toString("base64")}`;
    await ensureDefaultDestination({ ...t.config, TALLY_FORWARD_URL: `${sink.url}/env`, TALLY_FORWARD_SECRET: secret });
    await withoutAllowance(async () => {
      await settle("stored");
      await drain(2000, async () => {
        const attempts = await db().outboundAttempt.count({ where: { destinationId: api.id } });
        const delivered = await db().outboundDelivery.count({ where: { status: "delivered" } });
        return attempts >= 1 && delivered >= 1;
      });
    });
    const refused = await db().outboundAttempt.findFirstOrThrow({ where: { destinationId: api.id } });
    expect(refused).toMatchObject({ ok: false, statusCode: null });
    expect(refused.error).toMatch(/^refused: 127\.0\.0\.1 is a private, loopback/);
    expect(sink.requests.map((r) => r.headers["webhook-id"] !== undefined)).toEqual([true]);
    expect((await db().outboundDelivery.findFirstOrThrow({ where: { destinationId: "dst_default" } })).status).toBe(
      "delivered",
    );
  });
});

describe("a destination that hangs", () => {
  it("is cut off by TALLY_FORWARD_TIMEOUT_MS (2 s) whether it never answers or trickles a byte a second, while another destination gets its event", async () => {
    const servers: Server[] = [];
    const timers: NodeJS.Timeout[] = [];
    const listen = async (onSocket: (s: Socket) => void) => {
      const server = createNetServer(onSocket);
      servers.push(server);
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
      const a = server.address();
      return `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}/hook`;
    };
    const trickle = (socket: Socket, text: string) => {
      let i = 0;
      const timer = setInterval(() => {
        if (i < text.length && !socket.destroyed) socket.write(text[i++]);
      }, 1000);
      timers.push(timer);
      socket.on("error", () => undefined);
    };
    try {
      const hanging = {
        // Accepts the connection and never answers.
        silent: await listen((s) => s.on("error", () => undefined)),
        // Sends its status line a byte a second.
        slowHeaders: await listen((s) => trickle(s, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")),
        // Answers 500 at once, then its body a byte a second (Tally reads some of a failure's body).
        slowBody: await listen((s) => {
          s.write("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 100\r\n\r\n");
          trickle(s, "x".repeat(100));
        }),
      };
      for (const url of Object.values(hanging)) await createDestination({ url, events: ["job.stored"] }, "test");
      await createDestination({ url: sink.url, events: ["job.stored"] }, "test");
      await settle("stored");

      const items = await claim({ owner: "test", limit: 10, leaseMs: 10_000 });
      expect(items).toHaveLength(4);
      let hangingDoneAt = Infinity;
      const goodId = (await db().destination.findFirstOrThrow({ where: { url: sink.url } })).id;
      await Promise.all(
        items.map(async (item) => {
          await runItem(registry, item, { timeoutMs: 10_000 });
          const { deliveryId } = forwardEventPayload.parse(JSON.parse(item.payload));
          const d = await db().outboundDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
          if (d.destinationId !== goodId) hangingDoneAt = Math.min(hangingDoneAt, Date.now());
        }),
      );
      // The good destination had its event before any hanging one was given up on.
      expect(sink.requests).toHaveLength(1);
      const attempts = await db().outboundAttempt.findMany({ include: { delivery: true }, orderBy: { id: "asc" } });
      const byUrl = new Map<string, (typeof attempts)[number]>();
      for (const a of attempts) {
        const dest = await db().destination.findUniqueOrThrow({ where: { id: a.destinationId } });
        byUrl.set(dest.url, a);
      }
      expect(byUrl.get(sink.url)).toMatchObject({ ok: true, statusCode: 200 });
      // Each cut off at 2 s (the item's own limit is 10 s): no answer at all, or a 500 whose body never ends.
      for (const url of [hanging.silent, hanging.slowHeaders])
        expect(byUrl.get(url), url).toMatchObject({ ok: false, statusCode: null, error: "timed out after 2000 ms" });
      expect(byUrl.get(hanging.slowBody)).toMatchObject({ ok: false, statusCode: 500, error: "HTTP 500" });
      for (const url of Object.values(hanging)) {
        expect(byUrl.get(url)?.latencyMs).toBeGreaterThanOrEqual(2000);
        expect(byUrl.get(url)?.latencyMs).toBeLessThan(10_000);
      }
      expect(sink.requests[0].at).toBeLessThan(hangingDoneAt);
      // Each waits for its retry; none is dead-lettered for hanging once.
      const waiting = await db().outboundDelivery.findMany({ where: { destinationId: { not: goodId } } });
      expect(waiting.map((d) => d.status)).toEqual(["retrying", "retrying", "retrying"]);
    } finally {
      for (const t of timers) clearInterval(t);
      for (const s of servers) {
        s.close();
      }
    }
  });
});
