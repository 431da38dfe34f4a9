// GET /api/runs — runs, newest first (cursor, limit); POST /api/runs — a run from a list of URLs (JSON, text/plain or text/csv)
import { NextResponse } from "next/server";
import { operatorRoute } from "@/lib/http/operator-route";
import { createRun, listRuns, readRunRequest, runListQuerySchema } from "@/lib/runs";

export const dynamic = "force-dynamic";

export const GET = operatorRoute({ role: "viewer", query: runListQuerySchema }, ({ query }) => listRuns(query));

export const POST = operatorRoute({ role: "operator" }, async ({ req, actor }) => {
  const { list, opts } = await readRunRequest(req);
  return NextResponse.json(await createRun(list, opts, actor), { status: 201 });
});
