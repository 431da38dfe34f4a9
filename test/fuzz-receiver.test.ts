// Property-based tests (fast-check) of the webhook receiver: generated paths, envelopes, headers and
// bodies — random bytes, random JSON, JSON of the wrong shape, huge strings, unicode, NUL, invalid UTF-8,
// a BOM, UTF-16 — unsigned, badly signed (garbled, wrong secret, stale or bad timestamps) and correctly
// signed with the test's known secrets, both schemes. The receiver is Tally's own (lib/webhooks/node-server.ts,
// what server.ts serves) listening in this process, so thousands of deliveries take seconds. Properties:
// never a 5xx; every 4xx is JSON with an error; anything not accepted leaves no receipt and no queue
// item; a correctly signed valid envelope is accepted exactly once (its receipt and queue item),
// then answered duplicate. A failure prints fast-check's seed and path to reproduce it.
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signDelivery, defaultHmacScheme, defaultStandardScheme } from "@/lib/signing/signature";
import { createReceiverServer } from "@/lib/webhooks/node-server";
import { invalidateSecretCache } from "@/lib/webhooks/secrets";
import { addSubscription, createTestDb, type TestDb } from "./db";
import { openSql, type TestSql } from "./sql";

const SHARED = "env-shared-secret-value";
const HMAC = "whsec_fuzz_hmac_secret_value";
const STD = "whsec_" + Buffer.from("standard-webhooks-key-for-fuzzing").toString("base64");
const MAX_BODY = 8192;

let t: TestDb;
let sql: TestSql;
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  t = await createTestDb({
    GEONODE_WEBHOOK_SECRET: SHARED,
    TALLY_WEBHOOK_MAX_BODY_BYTES: String(MAX_BODY),
    TALLY_WORKER: "off",
  });
  sql = await openSql(t.url);
  await addSubscription(sql, "sub-hmac", HMAC, "extract_completed");
  await sql.run(
    `INSERT INTO Subscription (id, eventType, url, isActive, scheme, secret, createdAt, updatedAt)
     VALUES ('sub-std', 'batch_completed', 'http://x', true, 'standard', ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP),
            ('sub-off', 'crawl_completed', 'http://x', false, 'hmac', ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
    STD,
    HMAC,
  );
  invalidateSecretCache();
  const server = createReceiverServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(async () => {
  await close?.();
  await sql?.close();
  await t?.cleanup();
});

// ---- generators -------------------------------------------------------------------------------------

const jobId = fc.stringMatching(/^[A-Za-z0-9._:-]{1,40}$/).map((s) => `fz-${s}`);
const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.constantFrom("\u0000", "a\u0000b", "\ud800", "\u202e", "' OR 1=1 --", "<script>", "x".repeat(300)),
);
const ENVELOPE_KEYS = ["event", "event_type", "delivery_id", "id", "job_id", "data"];
const knownEvent = fc.constantFrom("extract_completed", "batch_completed", "crawl_completed");

/** A body a sender could mean as a valid delivery: the documented envelope or the flat shape. */
const validEnvelope = fc
  .record({
    jobId,
    event: knownEvent,
    flat: fc.boolean(),
    // Any text a delivery id may be (up to 200 characters, no NUL: Tally stores it).
    deliveryId: fc.option(
      text.filter((s) => s.length <= 200 && !s.includes("\u0000")),
      { nil: undefined },
    ),
    numericId: fc.option(fc.integer(), { nil: undefined }),
    extra: fc.dictionary(
      fc.string({ maxLength: 8 }).filter((k) => !ENVELOPE_KEYS.includes(k)),
      fc.jsonValue({ maxDepth: 2 }),
      { maxKeys: 3 },
    ),
  })
  .map(({ jobId, event, flat, deliveryId, numericId, extra }) => ({
    jobId,
    value: flat
      ? { ...extra, job_id: jobId, event_type: event, id: numericId ?? deliveryId }
      : {
          ...extra,
          event,
          webhook_id: "wh-fuzz",
          delivery_id: deliveryId,
          timestamp: new Date().toISOString(),
          data: { job_id: jobId, status: "completed" },
        },
  }));

/** Valid JSON of the wrong shape: fields of the wrong type, bad job ids, unknown events, nesting. */
const wrongShape = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.record(
    {
      event: fc.oneof(text, fc.jsonValue({ maxDepth: 1 })),
      event_type: fc.oneof(text, fc.integer()),
      job_id: fc.oneof(text, fc.integer(), fc.constant(null), fc.constant("x".repeat(129)), fc.constant(" ")),
      data: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.record({ job_id: fc.oneof(text, fc.integer()) })),
      delivery_id: fc.oneof(text, fc.integer(), fc.constant("d".repeat(201))),
      id: fc.oneof(text, fc.double(), fc.boolean(), fc.array(fc.integer())),
    },
    { requiredKeys: [] },
  ),
);

/** `valid`: a signed copy must be accepted; `refuse`: a signed copy must be refused with 400. */
type Body = { bytes: Uint8Array; valid?: { jobId: string }; refuse?: true };
const utf8 = (s: string) => new TextEncoder().encode(s);
const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 4, arbitrary: validEnvelope.map((e) => ({ bytes: utf8(JSON.stringify(e.value)), valid: e })) },
  { weight: 3, arbitrary: wrongShape.map((v) => ({ bytes: utf8(JSON.stringify(v) ?? "") })) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ bytes })) },
  // Encodings: a valid envelope as UTF-16, with invalid UTF-8 spliced in, with a raw NUL or control
  // byte inside a string, truncated, or padded past the size limit.
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        validEnvelope,
        fc.constantFrom("utf16", "ff", "nul", "ctl", "truncate", "huge", "deep", "nul-field"),
        fc.integer({ min: 1, max: 60 }),
        fc.constantFrom("event", "event_type", "delivery_id", "id"),
      )
      .map(([e, how, at, field]): Body => {
        const json = JSON.stringify(e.value);
        const b = utf8(json);
        const i = Math.min(at, b.length - 2);
        if (how === "utf16") return { bytes: new Uint8Array(Buffer.from(json, "utf16le")), refuse: true };
        if (how === "ff") return { bytes: new Uint8Array([...b.slice(0, i), 0xff, 0xfe, ...b.slice(i)]), refuse: true };
        const quote = json.indexOf('"', i);
        if (how === "nul" || how === "ctl") {
          const byte = how === "nul" ? 0 : 0x07;
          return { bytes: new Uint8Array([...b.slice(0, quote + 1), byte, ...b.slice(quote + 1)]), refuse: true };
        }
        if (how === "truncate") return { bytes: b.slice(0, i), refuse: true };
        if (how === "deep") return { bytes: utf8(`{"data":${"[".repeat(3000)}${"]".repeat(3000)}}`), refuse: true };
        // A NUL (escaped, so valid JSON) in a field Tally keeps: PostgreSQL cannot store it; 400 on both.
        if (how === "nul-field") {
          const value = { ...e.value, [field]: `d-\u0000-${at}` } as Record<string, unknown>;
          if (field === "event") value.event_type = undefined;
          return { bytes: utf8(JSON.stringify(value)), refuse: true };
        }
        return { bytes: utf8(JSON.stringify({ ...e.value, pad: "\u00e9".repeat(MAX_BODY) })) };
      }),
  },
  // A valid envelope behind a UTF-8 BOM: still the same JSON (TextDecoder drops the BOM), still valid.
  {
    weight: 1,
    arbitrary: validEnvelope.map((e) => ({
      bytes: new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(JSON.stringify(e.value))]),
      valid: e,
    })),
  },
);

type Path = { path: string; scheme: "hmac" | "standard" | "any"; secret: string | null; answer?: number };
const path = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Path>({ path: "/webhooks/geonode", scheme: "any", secret: SHARED }) },
  { weight: 3, arbitrary: fc.constant<Path>({ path: "/webhooks/geonode/sub-hmac", scheme: "hmac", secret: HMAC }) },
  { weight: 3, arbitrary: fc.constant<Path>({ path: "/webhooks/geonode/sub-std", scheme: "standard", secret: STD }) },
  {
    weight: 1,
    arbitrary: fc.constant<Path>({ path: "/webhooks/geonode/sub-off", scheme: "hmac", secret: HMAC, answer: 410 }),
  },
  {
    weight: 1,
    arbitrary: fc
      .oneof(text, fc.constantFrom("%00", "%ZZ", "%", "%2F", "x".repeat(300)))
      .filter((s) => s.isWellFormed() && !["", ".", "sub-hmac", "sub-std", "sub-off"].includes(s))
      .map((k): Path => ({
        path: `/webhooks/geonode/${k.startsWith("%") ? k : encodeURIComponent(k)}`,
        scheme: "hmac",
        secret: HMAC,
        answer: 404,
      })),
  },
);

type Signing = "none" | "correct" | "prefixed" | "wrong-secret" | "garbled" | "other-body" | "stale" | "bad-ts";
const signing = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<Signing>("correct", "prefixed") },
  {
    weight: 4,
    arbitrary: fc.constantFrom<Signing>("none", "wrong-secret", "garbled", "other-body", "stale", "bad-ts"),
  },
);

/** The signature headers for `bytes` on `p`, as `how` says; `ok` when they must verify. */
function sign(
  p: Path,
  bytes: Uint8Array,
  how: Signing,
  garble: string,
): { headers: Record<string, string>; ok: boolean } {
  if (how === "none" || p.secret === null) return { headers: {}, ok: false };
  const standard = p.scheme === "standard";
  const scheme = standard ? defaultStandardScheme : defaultHmacScheme;
  const now = Date.now() / 1000;
  const secret = how === "wrong-secret" ? (standard ? "whsec_" + "QUFB".repeat(8) : "not-the-secret") : p.secret;
  const signed = how === "other-body" ? new Uint8Array([...bytes, 0x20]) : bytes;
  const ts = how === "stale" && standard ? now - 3600 : now;
  const headers = signDelivery(scheme, secret, signed, { id: `msg_${garble.length}`, timestamp: ts });
  if (how === "prefixed" && !standard) headers["X-Webhook-Signature"] = "sha256=" + headers["X-Webhook-Signature"];
  if (how === "garbled") {
    const name = standard ? "webhook-signature" : "X-Webhook-Signature";
    headers[name] = (headers[name].slice(0, -4) + garble).replace(/[^\x20-\x7e]/g, "");
  }
  if (how === "bad-ts") {
    if (standard) headers["webhook-timestamp"] = garble.replace(/[^\x20-\x7e]/g, "") || "-1";
    else delete headers["X-Webhook-Signature"];
  }
  const ok = how === "correct" || how === "prefixed" || (how === "stale" && !standard);
  return { headers, ok };
}

const contentType = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/x-www-form-urlencoded",
  "",
);

// ---- the properties -----------------------------------------------------------------------------------

async function post(p: string, bytes: Uint8Array, headers: Record<string, string>) {
  const res = await fetch(base + p, { method: "POST", headers, body: new Uint8Array(bytes) });
  const raw = await res.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(raw);
  } catch {
    // asserted below
  }
  return { status: res.status, json, raw };
}
const stored = async () =>
  (await sql.get<{ receipts: number; items: number }>(
    "SELECT (SELECT COUNT(*) FROM Receipt) AS receipts, (SELECT COUNT(*) FROM QueueItem) AS items",
  ))!;
const accepted = new Set<string>();

describe("webhook receiver, generated deliveries", () => {
  it("never a 5xx, a JSON reason in every 4xx, nothing stored unless accepted, a signed valid envelope once", async () => {
    await fc.assert(
      fc.asyncProperty(
        path,
        body,
        signing,
        fc.string({ maxLength: 12 }),
        contentType,
        fc.boolean(),
        async (p, b, how, garble, type, encoding) => {
          const { headers, ok } = sign(p, b.bytes, how, garble);
          if (type) headers["content-type"] = type;
          if (encoding) headers["content-encoding"] = "gzip";
          const before = await stored();
          const r = await post(p.path, b.bytes, headers);
          const after = await stored();
          const what = `${p.path} ${how} ${r.status} ${r.raw.slice(0, 200)}`;
          expect(r.status, what).toBeLessThan(500);
          expect(r.json, what).not.toBeNull();
          if (r.status >= 400) expect(typeof r.json?.error, what).toBe("string");
          if (r.status === 400) expect(typeof r.json?.reason, what).toBe("string");
          if (r.json?.status === "accepted")
            expect(after, what).toEqual({ receipts: before.receipts + 1, items: before.items + 1 });
          else expect(after, what).toEqual(before);

          const tooBig = b.bytes.byteLength > MAX_BODY;
          if (tooBig) expect(r.status, what).toBe(413);
          else if (p.answer) expect(r.status, what).toBe(p.answer);
          else if (!ok) expect(r.status, what).toBe(401);
          else if (b.valid) {
            // Signed, valid, within the limit: accepted the first time, duplicate after; stored once.
            const first = !accepted.has(b.valid.jobId);
            accepted.add(b.valid.jobId);
            expect(r, what).toMatchObject({ status: 200, json: { status: first ? "accepted" : "duplicate" } });
            expect(after, what).toEqual(first ? { receipts: before.receipts + 1, items: before.items + 1 } : before);
            expect(await sql.count("Receipt", "jobId = ?", b.valid.jobId)).toBe(1);
            expect(await sql.count("QueueItem", "jobId = ?", b.valid.jobId)).toBe(1);
            const again = await post(p.path, b.bytes, sign(p, b.bytes, how, garble).headers);
            expect(again.json, what).toEqual({ status: "duplicate" });
            expect(await stored()).toEqual(after);
          } else if (b.refuse) {
            expect(r.status, what).toBe(400);
          } else {
            // Signed but not a valid envelope: refused with a reason, ignored (an unknown event), or
            // (a generated shape that happens to name a job id) accepted once as checked above.
            expect([400, 200], what).toContain(r.status);
            if (r.status === 200) expect(["ignored", "accepted", "duplicate"], what).toContain(r.json?.status);
          }
        },
      ),
      { numRuns: 1500 },
    );
    // The run did exercise acceptance, not only refusals.
    expect(accepted.size).toBeGreaterThan(80);
  }, 120_000);
});
