// The receiver's own logic (lib/webhooks/receive.ts) on a bare node:http server, with the same
// database work, so the benchmark shows how much of the cost is the framework's.
//   tsx --conditions=react-server bench/bare-receiver.ts PORT   (DATABASE_URL from the environment)
import http from "node:http";
import { getConfig } from "../lib/config";
import { receive } from "../lib/webhooks/receive";

const port = Number(process.argv[2] ?? 3900);
const limit = getConfig().TALLY_WEBHOOK_MAX_BODY_BYTES;

http
  .createServer((req, res) => {
    const startedAt = Date.now();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= limit) chunks.push(c);
    });
    req.on("end", async () => {
      const key = req.url?.match(/^\/webhooks\/geonode\/([^/?]+)/)?.[1] ?? null;
      const headers = { get: (name: string) => req.headers[name.toLowerCase()]?.toString() ?? null };
      const read = size > limit ? { ok: false as const, size } : { ok: true as const, body: Buffer.concat(chunks) };
      try {
        const answer = await receive({ subscriptionKey: key, headers, read, startedAt });
        res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
      } catch {
        res.writeHead(503, { "content-type": "application/json" }).end('{"error":"not_recorded"}');
      }
    });
  })
  .listen(port, "127.0.0.1", () => console.log(`bare receiver on ${port}`));
