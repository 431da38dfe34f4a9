// GET /api/ready — public: readiness for a load balancer or Kubernetes; 503 with a reason code otherwise
import { NextResponse } from "next/server";
import { documented } from "@/lib/http";
import { checkReadiness, notReadySchema, readyOkSchema } from "@/lib/readiness";

export const dynamic = "force-dynamic";

export const GET = documented(
  {
    access: { kind: "public" },
    summary:
      "Readiness: the database answers, its migrations are current, the body store takes a write and the process is not stopping",
    answer: readyOkSchema,
    otherAnswers: { 503: { description: "Not ready; `reason` says which check failed", answer: notReadySchema } },
  },
  async () => {
    const ready = await checkReadiness();
    return NextResponse.json(ready, { status: ready.ready ? 200 : 503, headers: { "cache-control": "no-store" } });
  },
);
