// GET /api/runs/:runId — one run: its counts (adding up to total), chunks, duplicate submissions, platform calls and ETA
import { z } from "zod";
import { operatorRoute } from "@/lib/http/operator-route";
import { getRun } from "@/lib/runs";

export const dynamic = "force-dynamic";

const params = z.object({ runId: z.string().min(1).max(100) });

export const GET = operatorRoute({ role: "viewer", params }, ({ params }) => getRun(params.runId));
