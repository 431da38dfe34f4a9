// GET /api/health — public: database check and version; 503 when the database cannot be reached
import { NextResponse } from "next/server";
import { documented } from "@/lib/http";
import { checkHealth, healthOkSchema, healthUnavailableSchema } from "@/lib/metrics";

export const dynamic = "force-dynamic";

export const GET = documented(
  {
    access: { kind: "public" },
    summary: "Database check and version, for load balancers and uptime checks",
    answer: healthOkSchema,
    otherAnswers: { 503: { description: "The database cannot be reached", answer: healthUnavailableSchema } },
  },
  async () => {
    const health = await checkHealth();
    return NextResponse.json(health, { status: health.status === "ok" ? 200 : 503 });
  },
);
