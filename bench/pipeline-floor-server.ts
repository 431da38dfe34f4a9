// tsx --conditions=react-server bench/pipeline-floor-server.ts PORT SIMULATOR_URL API_KEY
// The pipeline's floor for bench/pipeline.ts: the HTTP work one job asks of any receiver that keeps
// Tally's rule "never trust the payload", and nothing else. Per webhook: read the raw body, verify
// its signature with Tally's own code, answer 200, then GET the job's document from the platform
// over Node's http module on kept-alive connections (Tally's client's own sender, lib/platform/send.ts)
// and parse it. No store, no queue, no validation of the
// document, no budget, no logs. GET /count answers how many documents were fetched, when the last was, and
// the process's CPU time so far.
// POST /secret sets the subscription's secret (the bench registers the webhook, then hands it over).
import http from "node:http";
import { nodeSend } from "../lib/platform/send";
import { defaultHmacScheme, verifyDelivery } from "../lib/signing";

const [port, simUrl, apiKey] = process.argv.slice(2);
let secret = "";
let fetched = 0;
let failed = 0;
let lastAt = 0;

function body(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

async function fetchJob(jobId: string) {
  const res = await nodeSend(`${simUrl}/v1/extract/${encodeURIComponent(jobId)}`, {
    method: "GET",
    headers: { "x-api-key": apiKey! },
    signal: AbortSignal.timeout(30_000),
  });
  const doc = JSON.parse(res.text) as { status?: string };
  if (res.status === 200 && doc.status === "completed") fetched++;
  else failed++;
  lastAt = Date.now();
}

const server = http.createServer((req, res) => {
  void (async () => {
    const raw = await body(req);
    if (req.url === "/count") {
      const cpu = process.cpuUsage();
      return void res.end(JSON.stringify({ fetched, failed, lastAt, cpuMs: (cpu.user + cpu.system) / 1000 }));
    }
    if (req.url === "/secret") {
      secret = raw.toString("utf8");
      return void res.end("{}");
    }
    const headers = {
      get: (name: string) => {
        const v = req.headers[name.toLowerCase()];
        return Array.isArray(v) ? v.join(",") : (v ?? null);
      },
    };
    const verdict = verifyDelivery(defaultHmacScheme, [secret], raw, headers, Date.now());
    if (!verdict.ok) {
      res.writeHead(401).end();
      return;
    }
    const envelope = JSON.parse(raw.toString("utf8")) as { data: { job_id: string } };
    res.writeHead(200, { "content-type": "application/json" }).end('{"status":"accepted"}');
    await fetchJob(envelope.data.job_id).catch(() => failed++);
  })();
});
server.listen(Number(port), "127.0.0.1", () => process.stdout.write("floor ready\n"));
process.on("SIGTERM", () => process.exit(0));
