// POST /api/runs/:runId/cancel — stop the run: URLs not stored become failed (cancelled), its running batch jobs are cancelled
import { z } from "zod";
import { operatorRoute } from "@/lib/http/operator-route";
import { cancelRun } from "@/lib/runs";

export const dynamic = "force-dynamic";

const params = z.object({ runId: z.string().min(1).max(100) });

export const POST = operatorRoute({ role: "operator", params }, ({ params, actor, req }) =>
  cancelRun(params.runId, actor, req.signal),
);
