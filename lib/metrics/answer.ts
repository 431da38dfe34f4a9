import "server-only";
import { z } from "zod";
import { metricsAuthorized } from "./token";
import { log } from "../log";
import { scrapeMetrics } from "./scrape";

// The answer to GET /api/metrics, whoever serves it: the Next route on Tally's server, the bare
// receiver (`npm run receiver`) and a worker's own listener (TALLY_METRICS_PORT) all send this.

/** The 503 when the shared gauges cannot be read (not the Error shape: Prometheus only reads the status). */
export const metricsUnavailableSchema = z.object({ error: z.literal("unavailable"), reason: z.string() });

export type MetricsAnswer = { status: 200 | 401 | 503; headers: Record<string, string>; body: string };

function json(status: 401 | 503, body: unknown, headers: Record<string, string> = {}): MetricsAnswer {
  return {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
    body: JSON.stringify(body),
  };
}

/** Bearer TALLY_METRICS_TOKEN (or the API token) opens it; the scrape reads shared gauges from the database. */
export async function answerMetrics(authorization: string | null): Promise<MetricsAnswer> {
  if (!metricsAuthorized(authorization)) {
    return json(
      401,
      { error: "unauthorized", message: "Send Authorization: Bearer <TALLY_METRICS_TOKEN> (or the API token)" },
      { "www-authenticate": 'Bearer realm="tally-metrics"' },
    );
  }
  try {
    const { contentType, body } = await scrapeMetrics();
    return { status: 200, headers: { "content-type": contentType, "cache-control": "no-store" }, body };
  } catch (err) {
    // The queue and dead-letter gauges come from the database: without it the scrape fails as a whole
    // (Prometheus records the target as down) rather than showing stale shared values.
    log.warn("metrics scrape failed", { error: String(err).split("\n")[0] });
    const body: z.input<typeof metricsUnavailableSchema> = {
      error: "unavailable",
      reason: "the database could not be read for the shared gauges; retry",
    };
    return json(503, body);
  }
}
