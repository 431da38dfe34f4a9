// GET /api/metrics — Prometheus text format; Authorization: Bearer <TALLY_METRICS_TOKEN or TALLY_API_TOKEN>
import type { NextRequest } from "next/server";
import { answerMetrics } from "@/lib/metrics/answer";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest): Promise<Response> {
  const { status, headers, body } = await answerMetrics(req.headers.get("authorization"));
  return new Response(body, { status, headers });
}
