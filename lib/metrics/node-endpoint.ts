import "server-only";
import type http from "node:http";
import { sendBody, sendJson } from "../http/node-answer";
import { answerMetrics } from "./answer";

// GET /api/metrics on a bare node:http server: the same answer as the Next route (answer.ts).

const METRICS_PATH = /^\/api\/metrics\/?(?:\?.*)?$/;

export function isMetricsPath(url: string | undefined): boolean {
  return METRICS_PATH.test(url ?? "");
}

/** GET (and HEAD, as Next answers it) get the scrape; other methods 405. */
export async function serveMetrics(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  req.resume();
  if (req.method !== "GET" && req.method !== "HEAD") return sendJson(res, 405, { error: "method_not_allowed" }, { allow: "GET" });
  const header = req.headers.authorization;
  const answer = await answerMetrics(header ?? null);
  sendBody(res, answer.status, answer.body, answer.headers);
}
