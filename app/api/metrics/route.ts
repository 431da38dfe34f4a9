// GET /api/metrics — Prometheus text format; Authorization: Bearer <TALLY_METRICS_TOKEN or TALLY_API_TOKEN>
import { NextResponse, type NextRequest } from "next/server";
import { metricsAuthorized } from "@/lib/auth/metrics-token";
import { scrapeMetrics } from "@/lib/metrics/scrape";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest): Promise<Response> {
  if (!metricsAuthorized(req.headers.get("authorization"))) {
    return NextResponse.json(
      { error: "unauthorized", message: "Send Authorization: Bearer <TALLY_METRICS_TOKEN> (or the API token)" },
      { status: 401, headers: { "www-authenticate": 'Bearer realm="tally-metrics"' } },
    );
  }
  const { contentType, body } = await scrapeMetrics();
  return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
}
