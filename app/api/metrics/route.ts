// GET /api/metrics — Prometheus text format; Authorization: Bearer <TALLY_METRICS_TOKEN or TALLY_API_TOKEN>
import type { NextRequest } from "next/server";
import { documented } from "@/lib/http";
import { answerMetrics, metricsUnavailableSchema } from "@/lib/metrics";

export const dynamic = "force-dynamic";

export const GET = documented(
  {
    access: { kind: "metrics" },
    summary: "Prometheus metrics in the text exposition format",
    produces: "prometheus",
    errors: [401],
    otherAnswers: {
      503: { description: "The shared gauges could not be read; retry", answer: metricsUnavailableSchema },
    },
  },
  async (req: NextRequest): Promise<Response> => {
    const { status, headers, body } = await answerMetrics(req.headers.get("authorization"));
    return new Response(body, { status, headers });
  },
);
