// OpenTelemetry traces end to end (issue 41): Tally as `npm start` runs it (`npm run build` first), the
// simulator over real HTTP, and an OTLP/HTTP receiver of this test's own that collects what Tally exports
// (JSON). One job's trace is one tree: the webhook's receipt → the queue item's processing → the
// platform GET → the store → every outbound delivery (a webhook, whose receiver gets the trace's
// `traceparent`) and the sink write. A caller's `traceparent` on the API is continued; a delivery that
// is retried starts a trace of its own with a link to the attempt before. Log lines carry `trace_id`;
// no span holds the API key, a secret, a signature or a body. Runs on SQLite and, through
// vitest.postgres.config.mts, on PostgreSQL.
import { createServer, type Server } from "node:http";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { API_KEY, startReceiver, startSim, waitFor } from "@/lib/simulator/test-harness.test-util";
import { REQUIRE_SERVICES, SERVICES, serviceAnswers, type SinkService } from "./sink-services";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

type Value = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: Value }>;
  links?: Array<{ traceId: string; spanId: string }>;
  events?: unknown[];
};
type Span = {
  traceId: string;
  spanId: string;
  parent: string | null;
  name: string;
  attrs: Record<string, string | number | boolean>;
  links: Array<{ traceId: string; spanId: string }>;
  resource: Record<string, string | number | boolean>;
  /** How it came: `OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL`. */
  protocol: "http/json" | "http/protobuf";
  raw: string;
};

// OTLP/JSON carries ids as hex; base64 is accepted too, should an exporter send it.
const hex = (id: string | undefined) =>
  !id ? "" : /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, "base64").toString("hex");
const plain = (v: Value) =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue ?? ""));
const attrs = (list: Array<{ key: string; value: Value }> | undefined) =>
  Object.fromEntries((list ?? []).map((a) => [a.key, plain(a.value)]));

const exportSchema = z.object({
  resourceSpans: z.array(
    z.object({
      resource: z.object({ attributes: z.array(z.any()).optional() }).optional(),
      scopeSpans: z.array(z.object({ spans: z.array(z.any()).optional() })).optional(),
    }),
  ),
});

// OTLP/protobuf, read by hand: the wire format's four kinds of field are all an export uses
// (opentelemetry/proto trace.proto, common.proto; field numbers below).
type Field = { no: number; bytes?: Buffer; int?: bigint };
function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = () => {
    let v = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const b = buf[i++];
      v |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return v;
    }
  };
  while (i < buf.length) {
    const tag = Number(varint());
    const no = tag >>> 3;
    const wire = tag & 7;
    if (wire === 0) out.push({ no, int: varint() });
    else if (wire === 1 || wire === 5) {
      const n = wire === 1 ? 8 : 4;
      out.push({ no, bytes: buf.subarray(i, i + n) });
      i += n;
    } else if (wire === 2) {
      const n = Number(varint());
      out.push({ no, bytes: buf.subarray(i, i + n) });
      i += n;
    } else throw new Error(`protobuf wire type ${wire} at ${i}`);
  }
  return out;
}
const all = (fs: Field[], no: number) => fs.filter((f) => f.no === no);
const str = (fs: Field[], no: number) => all(fs, no)[0]?.bytes?.toString("utf8");
const id = (fs: Field[], no: number) => all(fs, no)[0]?.bytes?.toString("hex");
function anyValue(buf: Buffer): Value {
  const f = fields(buf)[0];
  if (!f) return {};
  if (f.no === 1) return { stringValue: f.bytes!.toString("utf8") };
  if (f.no === 2) return { boolValue: f.int === 1n };
  if (f.no === 3) return { intValue: String(BigInt.asIntN(64, f.int!)) };
  if (f.no === 4) return { doubleValue: f.bytes!.readDoubleLE(0) };
  return { stringValue: f.bytes?.toString("utf8") ?? "" };
}
const keyValues = (fs: Field[], no: number) =>
  all(fs, no).map((kv) => {
    const f = fields(kv.bytes!);
    const value = all(f, 2)[0]?.bytes;
    return { key: str(f, 1) ?? "", value: value ? anyValue(value) : {} };
  });
/** An ExportTraceServiceRequest in protobuf, as the JSON encoding's shape. */
function decodeProtobuf(buf: Buffer): z.infer<typeof exportSchema> {
  return {
    resourceSpans: all(fields(buf), 1).map((rs) => {
      const r = fields(rs.bytes!);
      const resource = all(r, 1)[0]?.bytes;
      return {
        resource: { attributes: resource ? keyValues(fields(resource), 1) : [] },
        scopeSpans: all(r, 2).map((ss) => ({
          spans: all(fields(ss.bytes!), 2).map((sp): OtlpSpan => {
            const f = fields(sp.bytes!);
            return {
              traceId: id(f, 1) ?? "",
              spanId: id(f, 2) ?? "",
              parentSpanId: id(f, 4),
              name: str(f, 5) ?? "",
              kind: Number(all(f, 6)[0]?.int ?? 0n),
              attributes: keyValues(f, 9),
              // Events (11) are decoded for the secrets check only: Tally records none today.
              events: all(f, 11).map((e) => ({
                name: str(fields(e.bytes!), 2),
                attributes: keyValues(fields(e.bytes!), 3),
              })),
              links: all(f, 13).map((l) => ({
                traceId: id(fields(l.bytes!), 1) ?? "",
                spanId: id(fields(l.bytes!), 2) ?? "",
              })),
            };
          }),
        })),
      };
    }),
  };
}

/** An OTLP/HTTP collector of the test's own: POST /v1/traces with JSON or protobuf; every span kept. */
async function startOtlpReceiver() {
  const spans: Span[] = [];
  const requests: Array<{ contentType: string | undefined; spans: number }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.url !== "/v1/traces" || req.method !== "POST") return void res.writeHead(404).end();
      const contentType = req.headers["content-type"];
      const raw = Buffer.concat(chunks);
      const protobuf = contentType === "application/x-protobuf";
      const body = protobuf ? decodeProtobuf(raw) : exportSchema.parse(JSON.parse(raw.toString("utf8")));
      const before = spans.length;
      for (const rs of body.resourceSpans) {
        const resource = attrs(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? [])
          for (const s of (ss.spans ?? []) as OtlpSpan[])
            spans.push({
              traceId: hex(s.traceId),
              spanId: hex(s.spanId),
              parent: s.parentSpanId ? hex(s.parentSpanId) : null,
              name: s.name,
              attrs: attrs(s.attributes),
              links: (s.links ?? []).map((l) => ({ traceId: hex(l.traceId), spanId: hex(l.spanId) })),
              resource,
              protocol: protobuf ? "http/protobuf" : "http/json",
              raw: JSON.stringify(s),
            });
      }
      requests.push({ contentType, spans: spans.length - before });
      // An empty ExportTraceServiceResponse, in the request's encoding.
      if (protobuf) return void res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = address !== null && typeof address === "object" ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;
let sim: Awaited<ReturnType<typeof startSim>>;
let hook: Awaited<ReturnType<typeof startReceiver>>;
/** The PostgreSQL sink; null (and its checks skipped, loudly) where no PostgreSQL answers, unless CI requires one. */
let sink: SinkService | null = null;
let tally: TallyServer;
const WHSEC = `whsec_${randomBytes(32).toString("base64")}`;

const api = async (path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(tally.url + path, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}`, "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  sim = await startSim();
  // The first delivery of each event is answered 500: its retry must start a trace of its own.
  const firstOf = new Set<string>();
  hook = await startReceiver((r) => {
    const id = String(r.headers["webhook-id"]);
    if (firstOf.has(id)) return 200;
    firstOf.add(id);
    return 500;
  });
  if (await serviceAnswers("postgres")) sink = await SERVICES.postgres();
  else if (REQUIRE_SERVICES) throw new Error("TALLY_REQUIRE_POSTGRES=1 but no PostgreSQL answers for the sink");
  else console.warn("NO POSTGRESQL ANSWERS: test/tracing.test.ts does not check the sink write");
  tally = await startTally({
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_API_RPS: "1000",
    TALLY_ALLOW_PRIVATE_DESTINATIONS: "127.0.0.1",
    TALLY_FORWARD_RETRY_INITIAL_MS: "200",
    TALLY_FORWARD_RETRY_MAX_MS: "400",
    TALLY_POLL_NO_WEBHOOK_SECONDS: "86400",
    TALLY_RECONCILE_INTERVAL_MINUTES: "0",
    TALLY_LOG_LEVEL: "debug",
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    // Protobuf here (the traces-specific variable wins over the general one); the polled server below sends JSON.
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf",
    OTEL_BSP_SCHEDULE_DELAY: "100",
    OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=test",
  });
  expect((await api("/api/subscriptions/register", {})).status).toBe(200);
  const created = [
    await api("/api/destinations", { url: hook.url, secret: WHSEC, events: ["job.stored"] }),
    ...(sink
      ? [await api("/api/destinations", { type: "postgres", config: sink.config, events: ["job.stored"] })]
      : []),
  ];
  for (const c of created) expect(c.status, JSON.stringify(c.json)).toBe(201);
}, 90_000);

afterAll(async () => {
  await tally?.stop();
  await sink?.close();
  await hook?.close();
  await sim?.close();
  await otlp?.close();
});

const byName = (trace: Span[], name: string) => trace.filter((s) => s.name === name);
const one = (trace: Span[], name: string) => {
  const found = byName(trace, name);
  expect(
    found.map((s) => s.name),
    `one span ${name} in ${trace.map((s) => s.name).join(", ")}`,
  ).toEqual([name]);
  return found[0];
};
/** True when `ancestor` is on `span`'s path to the root of its trace. */
function under(trace: Span[], span: Span, ancestor: Span): boolean {
  const byId = new Map(trace.map((s) => [s.spanId, s]));
  for (let p = span.parent; p; p = byId.get(p)?.parent ?? null) if (p === ancestor.spanId) return true;
  return false;
}

describe("traces", () => {
  let jobId = "";
  const callerTrace = randomBytes(16).toString("hex");
  const callerSpan = randomBytes(8).toString("hex");

  it("continues a caller's traceparent on the API", async () => {
    const submitted = await api(
      "/api/jobs",
      { kind: "extract", url: "https://shop.example/item/41" },
      { traceparent: `00-${callerTrace}-${callerSpan}-01` },
    );
    expect(submitted.status, JSON.stringify(submitted.json)).toBe(201);
    jobId = z.string().parse(submitted.json.jobId);
    await waitFor(
      "the API request's spans",
      () =>
        otlp.spans.some((s) => s.traceId === callerTrace && s.name === "POST /v1/extract") &&
        otlp.spans.some((s) => s.parent === callerSpan && s.name === "POST"),
      15_000,
    );
    const trace = otlp.spans.filter((s) => s.traceId === callerTrace);
    // Tally's server span is the caller's child; the platform POST is inside it.
    const server = trace.find((s) => s.parent === callerSpan && s.name === "POST");
    expect(server, trace.map((s) => `${s.name}<${s.parent}`).join(", ")).toBeDefined();
    expect(server!.attrs["url.path"]).toBe("/api/jobs");
    expect(server!.attrs["http.response.status_code"]).toBe(201);
    const post = one(trace, "POST /v1/extract");
    expect(under(trace, post, server!)).toBe(true);
    expect(post.resource["service.name"]).toBe("tally");
    expect(post.resource["deployment.environment"]).toBe("test");
  }, 30_000);

  it("roots a public delivery's trace itself, keeping a stranger's traceparent as a link only (issue 47)", async () => {
    const strangerTrace = randomBytes(16).toString("hex");
    const strangerSpan = randomBytes(8).toString("hex");
    const res = await fetch(`${tally.url}/webhooks/geonode`, {
      method: "POST",
      headers: { "content-type": "application/json", traceparent: `00-${strangerTrace}-${strangerSpan}-01` },
      body: JSON.stringify({ event: "job.completed", id: "not-signed" }),
    });
    expect(res.status).toBe(401);
    await waitFor(
      "the stranger's delivery span",
      () => otlp.spans.some((s) => s.name === "webhook receive" && s.links.some((l) => l.spanId === strangerSpan)),
      15_000,
    );
    const receipt = otlp.spans.find(
      (s) => s.name === "webhook receive" && s.links.some((l) => l.spanId === strangerSpan),
    )!;
    expect(receipt.traceId).not.toBe(strangerTrace);
    expect(receipt.parent).toBeNull();
    expect(receipt.links).toEqual([expect.objectContaining({ traceId: strangerTrace, spanId: strangerSpan })]);
    expect(otlp.spans.some((s) => s.traceId === strangerTrace)).toBe(false);
  }, 30_000);

  it("follows one job from the webhook to the sink as one tree, and sends its traceparent out", async () => {
    await waitFor(
      "the job's sink write and its webhook delivered",
      () => (!sink || otlp.spans.some((s) => s.name === "sink write postgres")) && hook.received.length >= 2,
      30_000,
    );
    const receipt = otlp.spans.find((s) => s.name === "webhook receive" && s.attrs["tally.job.id"] === jobId);
    expect(receipt, "the webhook's receipt span").toBeDefined();
    expect(receipt!.parent).toBeNull();
    expect(receipt!.attrs["tally.receipt.outcome"]).toBe("accepted");
    // Spans are exported as they end, a parent after its children: wait for the whole tree.
    const expected = [
      "process process_job",
      "GET /v1/extract/{job_id}",
      "store results",
      "process forward_event",
      "POST webhook",
      ...(sink ? ["process forward_event", "sink write postgres"] : []),
    ];
    await waitFor(
      "the job's whole tree",
      () => {
        const names = otlp.spans.filter((s) => s.traceId === receipt!.traceId).map((s) => s.name);
        return expected.every((n) => names.filter((x) => x === n).length >= expected.filter((x) => x === n).length);
      },
      15_000,
    );
    const trace = otlp.spans.filter((s) => s.traceId === receipt!.traceId);
    const process = one(trace, "process process_job");
    expect(process.parent).toBe(receipt!.spanId);
    expect(process.attrs["tally.queue.attempt"]).toBe(1);
    const get = one(trace, "GET /v1/extract/{job_id}");
    expect(under(trace, get, process)).toBe(true);
    expect(get.attrs["http.response.status_code"]).toBe(200);
    const store = one(trace, "store results");
    expect(store.parent).toBe(process.spanId);
    // Both outbound deliveries' first attempts continue the trace, below the store that queued them.
    const forwards = byName(trace, "process forward_event");
    expect(forwards).toHaveLength(sink ? 2 : 1);
    for (const f of forwards) expect(under(trace, f, store)).toBe(true);
    if (sink) {
      const sinkWrite = one(trace, "sink write postgres");
      expect(forwards.some((f) => sinkWrite.parent === f.spanId)).toBe(true);
      // The sink holds the job's rows.
      expect((await sink.effect()).some((k) => k.startsWith(`${jobId}|`))).toBe(true);
    }
    const posted = one(trace, "POST webhook");
    expect(forwards.some((f) => posted.parent === f.spanId)).toBe(true);
    expect(posted.attrs["http.response.status_code"]).toBe(500);
    // The webhook's first attempt carried this trace's traceparent.
    expect(hook.received[0].headers.traceparent).toBe(`00-${receipt!.traceId}-${posted.spanId}-01`);

    // The retry: a trace of its own, linked to the first attempt; its traceparent goes out too.
    await waitFor(
      "the retried delivery's span",
      () => otlp.spans.some((s) => s.name === "POST webhook" && s.attrs["http.response.status_code"] === 200),
      15_000,
    );
    const firstForward = forwards.find((f) => posted.parent === f.spanId)!;
    await waitFor(
      "the retry's processing span",
      () =>
        otlp.spans.some(
          (s) => s.name === "process forward_event" && s.links.some((l) => l.spanId === firstForward.spanId),
        ),
      15_000,
    );
    const retry = otlp.spans.find(
      (s) => s.name === "process forward_event" && s.links.some((l) => l.spanId === firstForward.spanId),
    );
    expect(retry, "a retry linked to the first attempt").toBeDefined();
    expect(retry!.traceId).not.toBe(receipt!.traceId);
    expect(retry!.parent).toBeNull();
    expect(retry!.links[0].traceId).toBe(receipt!.traceId);
    expect(hook.received[1].headers.traceparent).toMatch(new RegExp(`^00-${retry!.traceId}-[0-9a-f]{16}-01$`));

    // Log lines written while the job was worked carry its trace id.
    const lines = tally
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.some((l) => l.trace_id === receipt!.traceId)).toBe(true);
  }, 60_000);

  it("starts a trace of its own for a job reconciliation found, linked to the reconciliation", async () => {
    sim.sim.setConfig({ webhookDropRate: 1 });
    const submitted = await api("/api/jobs", { kind: "extract", url: "https://shop.example/item/dropped" });
    expect(submitted.status, JSON.stringify(submitted.json)).toBe(201);
    const dropped = z.string().parse(submitted.json.jobId);
    const platform = sim.client();
    await waitFor(
      "the job settles on the platform",
      async () => (await platform.getExtractJob(dropped)).status === "completed",
      10_000,
    );
    sim.sim.setConfig({ webhookDropRate: 0 });
    const started = await api("/api/operations/reconcile", { olderThanSeconds: 0 });
    expect(started.status, JSON.stringify(started.json)).toBe(202);
    await waitFor(
      "the reconciled job's processing",
      () => otlp.spans.some((s) => s.name === "process process_job" && s.attrs["tally.job.id"] === dropped),
      20_000,
    );
    const process = otlp.spans.find((s) => s.name === "process process_job" && s.attrs["tally.job.id"] === dropped)!;
    expect(process.parent).toBeNull();
    expect(process.links).toHaveLength(1);
    const feed = otlp.spans.find((s) => s.spanId === process.links[0].spanId);
    expect(feed?.name).toBe("feed reconcile");
    expect(feed!.traceId).not.toBe(process.traceId);
    expect(feed!.attrs["tally.feed.enqueued"]).toBeGreaterThanOrEqual(1);
  }, 40_000);

  it("links a run's chunks to the run, and a collection's next run back to the one before", async () => {
    const created = await api("/api/collections", {
      name: "traced",
      urls: ["https://shop.example/a", "https://shop.example/b", "https://shop.example/c"],
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const collectionId = z.string().parse(created.json.id);
    const runToEnd = async () => {
      const started = await api(`/api/collections/${collectionId}/run`, {});
      expect(started.status, JSON.stringify(started.json)).toBe(202);
      const runId = z.string().parse(started.json.runId);
      await waitFor(
        "the run completes",
        async () => (await api(`/api/runs/${runId}`)).json.state === "completed",
        30_000,
      );
      return runId;
    };
    const first = await runToEnd();
    const second = await runToEnd();
    await waitFor(
      "both runs' chunk spans",
      () =>
        [first, second].every((id) => otlp.spans.some((s) => s.name === "run chunk" && s.attrs["tally.run.id"] === id)),
      15_000,
    );
    const runSpans = otlp.spans.filter(
      (s) => s.name === "collection run" && s.attrs["tally.collection.id"] === collectionId,
    );
    expect(runSpans).toHaveLength(2);
    // In the order they were exported: the first run ended before the second began.
    const [a, b] = runSpans;
    // Each run is a trace of its own; the second links back to the first, and both to the operator's request.
    for (const r of runSpans) expect(r.parent).toBeNull();
    expect(a.traceId).not.toBe(b.traceId);
    expect(b.links.map((l) => l.spanId)).toContain(a.spanId);
    for (const [runId, span] of [
      [first, a],
      [second, b],
    ] as const) {
      const chunks = otlp.spans.filter((s) => s.name === "run chunk" && s.attrs["tally.run.id"] === runId);
      expect(chunks.length).toBeGreaterThan(0);
      for (const c of chunks) expect(c.links.map((l) => l.spanId)).toContain(span.spanId);
      // Each chunk's batch job is a trace of its own, begun at its webhook, that links back to the run.
      const linkedJob = (s: Span) =>
        s.name === "store results" &&
        s.attrs["tally.job.kind"] === "batch" &&
        s.links.some((l) => l.spanId === span.spanId && l.traceId === span.traceId);
      await waitFor("the run's batch job linked to the run", () => otlp.spans.some(linkedJob), 15_000);
      const stored = otlp.spans.find(linkedJob)!;
      expect(stored.traceId).not.toBe(span.traceId);
      await waitFor(
        "the batch job's receipt",
        () => otlp.spans.some((s) => s.traceId === stored.traceId && s.parent === null),
        15_000,
      );
      expect(otlp.spans.find((s) => s.traceId === stored.traceId && s.parent === null)!.name).toBe("webhook receive");
      // The run's submit item continued the run's trace on its first attempt (its span ends after the chunk's).
      await waitFor(
        "the run's submit item under the run",
        () =>
          otlp.spans.some(
            (s) => s.name === "process run_submit" && s.traceId === span.traceId && s.parent === span.spanId,
          ),
        15_000,
      );
    }
  }, 90_000);

  it("puts no secret, signature, token or body in any span", () => {
    expect(otlp.spans.length).toBeGreaterThan(10);
    // This server's spans came as protobuf, every one of them decoded (an undecodable request fails the receiver).
    const mine = otlp.spans.filter((s) => s.resource["deployment.environment"] === "test");
    expect(mine.length).toBeGreaterThan(10);
    expect(mine.every((s) => s.protocol === "http/protobuf")).toBe(true);
    const sinkPassword = sink ? new URL(String(sink.config.url)).password : "";
    for (const s of otlp.spans) {
      for (const secret of [
        API_KEY,
        TEST_ENV.TALLY_API_TOKEN,
        WHSEC,
        WHSEC.slice(6),
        ...(sinkPassword ? [sinkPassword] : []),
      ])
        expect(s.raw.includes(secret), `${s.name} holds a secret`).toBe(false);
      expect(s.raw).not.toMatch(/webhook-signature|v1,|"markdown"|<html/i);
    }
  });
});

describe("traces of a polled job", () => {
  let polled: TallyServer;
  beforeAll(async () => {
    polled = await startTally({
      SCRAPER_API_BASE_URL: sim.url,
      GEONODE_SCRAPER_API_KEY: API_KEY,
      TALLY_API_RPS: "1000",
      TALLY_DELIVERY_MODE: "polling",
      TALLY_POLL_INITIAL_MS: "100",
      TALLY_POLL_MAX_MS: "300",
      TALLY_RECONCILE_INTERVAL_MINUTES: "0",
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_BSP_SCHEDULE_DELAY: "100",
      // The first server still has webhooks at the simulator and also stores this job from one: its spans are told apart by this.
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=polled",
    });
  }, 60_000);
  afterAll(async () => {
    await polled?.stop();
  });

  it("roots a job found settled by polling in its poll, which its queue item continues", async () => {
    const res = await fetch(polled.url + "/api/jobs", {
      method: "POST",
      headers: { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ kind: "extract", url: "https://shop.example/item/polled" }),
    });
    expect(res.status).toBe(201);
    const jobId = z.string().parse(((await res.json()) as Record<string, unknown>).jobId);
    const mine = (s: Span) =>
      s.name === "store results" &&
      s.attrs["tally.job.id"] === jobId &&
      s.resource["deployment.environment"] === "polled";
    await waitFor("the polled job's processing", () => otlp.spans.some(mine), 20_000);
    const store = otlp.spans.find(mine)!;
    // The processing span ends after the store's; the poll's may end after either.
    await waitFor(
      "the polled job's whole trace",
      () =>
        ["poll job", "process process_job", "GET /v1/extract/{job_id}"].every((n) =>
          otlp.spans.some((s) => s.traceId === store.traceId && s.name === n),
        ),
      15_000,
    );
    const trace = otlp.spans.filter((s) => s.traceId === store.traceId);
    // The poll that saw it settled is the root; its GET, the queue item's processing and the store are inside.
    const root = trace.find((s) => s.parent === null)!;
    expect(root.name).toBe("poll job");
    expect(root.attrs["tally.job.id"]).toBe(jobId);
    expect(root.resource["tally.process"]).toBe("server");
    // This server sends OTLP/JSON (the default protocol).
    expect(trace.every((s) => s.protocol === "http/json")).toBe(true);
    const process = one(trace, "process process_job");
    expect(process.parent).toBe(root.spanId);
    expect(store.parent).toBe(process.spanId);
    expect(trace.some((s) => s.name === "GET /v1/extract/{job_id}" && s.parent === root.spanId)).toBe(true);
  }, 40_000);
});

describe("traces under plain next start", () => {
  it("exports the last spans when Next ends the process on SIGTERM", async () => {
    // Next's own SIGTERM handler calls process.exit() once its server has closed; the batch processor
    // would send these spans only ten minutes later.
    const alone = await startTally(
      {
        SCRAPER_API_BASE_URL: sim.url,
        GEONODE_SCRAPER_API_KEY: API_KEY,
        TALLY_API_RPS: "1000",
        TALLY_WORKER: "off",
        TALLY_RECONCILE_INTERVAL_MINUTES: "0",
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_BSP_SCHEDULE_DELAY: "600000",
        OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=next-start",
      },
      undefined,
      { nextStart: true },
    );
    let exitCode: number | null = null;
    try {
      const res = await fetch(alone.url + "/api/jobs", {
        method: "POST",
        headers: { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ kind: "extract", url: "https://shop.example/item/next-start" }),
      });
      expect(res.status).toBe(201);
      const mine = () => otlp.spans.filter((s) => s.resource["deployment.environment"] === "next-start");
      expect(mine()).toEqual([]);
      exitCode = await alone.signal("SIGTERM");
      expect(mine().some((s) => s.name === "POST /v1/extract")).toBe(true);
    } finally {
      await alone.stop();
    }
    // Next's own exit code for SIGTERM, kept.
    expect(exitCode).toBe(143);
  }, 60_000);
});
