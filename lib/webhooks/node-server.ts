import "server-only";
import http from "node:http";
import { getConfig } from "../config";
import { log } from "../log";
import type { BodyRead } from "./read-body";
import { receive, recordRejected } from "./receive";

// The receiver on bare node:http: the same decision (receive.ts) and the same committed writes as
// the Next route, without the framework's request path. `npm run receiver` serves it on its own
// port for deployments that need more deliveries per second than a Next process answers.

const PATH = /^\/webhooks\/geonode(?:\/([^/?#]+))?\/?(?:\?.*)?$/;

function readLimited(req: http.IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve({ ok: false, size: declared });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= limit) chunks.push(c);
    });
    req.on("end", () => resolve(size > limit ? { ok: false, size } : { ok: true, body: Buffer.concat(chunks) }));
    req.on("error", reject);
  });
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", "x-content-type-options": "nosniff", ...headers });
  res.end(JSON.stringify(body));
}

export function createReceiverServer(): http.Server {
  const limit = getConfig().TALLY_WEBHOOK_MAX_BODY_BYTES;
  return http.createServer(async (req, res) => {
    const startedAt = Date.now();
    const match = PATH.exec(req.url ?? "");
    if (!match) {
      req.resume();
      return send(res, 404, { error: "not_found", message: "only /webhooks/geonode[/{subscriptionKey}] is served here" });
    }
    const key = match[1] ? decodeURIComponent(match[1]) : null;
    try {
      if (req.method !== "POST") {
        req.resume();
        await recordRejected(key, 405, `method ${req.method} not allowed`, startedAt);
        return send(res, 405, { error: "method_not_allowed" }, { allow: "POST" });
      }
      const read = await readLimited(req, limit);
      const headers = { get: (name: string) => req.headers[name.toLowerCase()]?.toString() ?? null };
      const answer = await receive({ subscriptionKey: key, headers, read, startedAt });
      send(res, answer.status, answer.body);
    } catch (err) {
      log.error("webhook delivery not recorded", { error: String(err) });
      send(res, 503, { error: "not_recorded", reason: "storage unavailable; retry" });
    }
  });
}
