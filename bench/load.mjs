// Signed-webhook load generator (Node >= 20, no dependencies; loopback only).
//   node bench/load.mjs --url http://127.0.0.1:3000/webhooks/geonode/KEY[,http://127.0.0.1:3001/…] --secret S \
//        [--n 5000] [--concurrency 32] [--dup-rate 0.1] [--bad-rate 0.05] [--seed 1] [--latencies FILE]
// Mix: bad = fresh job, wrong signature (expect 401); dup = byte-for-byte resend of an earlier good
// delivery (expect duplicate); new = fresh job, good signature (expect accepted). Prints one JSON
// line, including the job ids sent with a good signature when --ids FILE is given; --latencies FILE
// writes every request's latency in ms as a JSON array (a caller pooling several runs into one p99).
// Several URLs (comma-separated) are taken round robin, as a load balancer in front of several
// servers would.
import crypto from "node:crypto";
import { writeFileSync } from "node:fs";
import http from "node:http";
import { parseArgs } from "node:util";

const { values: o } = parseArgs({
  options: {
    url: { type: "string" },
    secret: { type: "string" },
    n: { type: "string", default: "5000" },
    concurrency: { type: "string", default: "32" },
    "dup-rate": { type: "string", default: "0.1" },
    "bad-rate": { type: "string", default: "0.05" },
    seed: { type: "string", default: "1" },
    ids: { type: "string" },
    latencies: { type: "string" },
  },
});
if (!o.url || !o.secret) {
  console.error(
    "usage: load.mjs --url URL --secret S [--n N] [--concurrency C] [--dup-rate F] [--bad-rate F] [--ids FILE]",
  );
  process.exit(2);
}
const urls = o.url.split(",").map((u) => new URL(u));
if (urls.some((u) => u.hostname !== "127.0.0.1")) {
  console.error("loopback only: use 127.0.0.1");
  process.exit(2);
}
const N = Number(o.n),
  C = Number(o.concurrency),
  DUP = Number(o["dup-rate"]),
  BAD = Number(o["bad-rate"]);
let seed = Number(o.seed) >>> 0;
const rand = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const sign = (secret, body) => crypto.createHmac("sha256", secret).update(body).digest("hex");
const agent = new http.Agent({ keepAlive: true, maxSockets: C });
const good = [];
const goodIds = new Set();
const statuses = {};
const results = {};
const latencies = [];
let errors = 0;

let turn = 0;
function post(body, sig) {
  const url = urls[turn++ % urls.length];
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const req = http.request(
      {
        host: "127.0.0.1",
        port: url.port,
        path: url.pathname,
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": body.length, "x-webhook-signature": sig },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => {
          latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
          try {
            const s = JSON.parse(text).status;
            if (s) results[s] = (results[s] ?? 0) + 1;
          } catch {}
          resolve();
        });
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error("timeout")));
    req.on("error", () => {
      errors++;
      resolve();
    });
    req.end(body);
  });
}

function fresh(i) {
  const jobId = `job_${crypto.randomUUID()}`;
  const body = Buffer.from(
    JSON.stringify({
      event: "extract_completed",
      webhook_id: "wh",
      delivery_id: `d_${i}`,
      timestamp: new Date().toISOString(),
      data: { job_id: jobId, status: "completed" },
    }),
  );
  return { jobId, body };
}

let next = 0;
async function worker() {
  while (next < N) {
    const i = next++;
    const r = rand();
    if (r < BAD) {
      const { body } = fresh(i);
      await post(body, sign(`${o.secret}-wrong`, body));
    } else if (r < BAD + DUP && good.length > 0) {
      const d = good[Math.floor(rand() * good.length)];
      await post(d.body, d.sig);
    } else {
      const d = fresh(i);
      d.sig = sign(o.secret, d.body);
      if (good.length < 4096) good.push(d);
      goodIds.add(d.jobId);
      await post(d.body, d.sig);
    }
  }
}

const t0 = process.hrtime.bigint();
await Promise.all(Array.from({ length: C }, worker));
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
agent.destroy();
latencies.sort((a, b) => a - b);
const pct = (p) => +latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)].toFixed(1);
if (o.ids) writeFileSync(o.ids, JSON.stringify([...goodIds]));
if (o.latencies) writeFileSync(o.latencies, JSON.stringify(latencies));
console.log(
  JSON.stringify({
    n: N,
    concurrency: C,
    seconds: +seconds.toFixed(2),
    rps: Math.round(N / seconds),
    p50_ms: pct(50),
    p99_ms: pct(99),
    statuses,
    results,
    errors,
    unique_good: goodIds.size,
  }),
);
