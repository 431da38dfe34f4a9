// GET /api/runs — runs, newest first (cursor, limit); POST /api/runs — a run from a list of URLs (JSON, text/plain or text/csv)
import { NextResponse } from "next/server";
import { operatorRoute } from "@/lib/http";
import {
  createdRunSchema,
  createRun,
  createRunBodySchema,
  createRunQuerySchema,
  listRuns,
  readRunRequest,
  runListQuerySchema,
  runListSchema,
} from "@/lib/runs";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  { role: "viewer", summary: "Runs, newest first, keyset-paged", query: runListQuerySchema, answer: runListSchema },
  ({ query }) => listRuns(query),
);

export const POST = operatorRoute(
  {
    role: "operator",
    summary: "A run from a list of URLs: JSON, or a text/plain or text/csv body with its options in the query",
    description:
      'JSON `{"name"?, "urls", "formats"?, "renderJs"?, "batchSize"?, "ignoreInvalid"?}`, or a `text/plain` / `text/csv` body (one URL a line; the first column of a CSV, with or without a header) with `?name=&batchSize=&ignoreInvalid=&renderJs=&formats=&maxTokens=&checks=&escalation=` (`checks` and `escalation` as JSON text); up to 32 MB. Invalid lines answer 400 with `details.invalidLines` (the first 20, with their line numbers) and create nothing, unless `ignoreInvalid`.',
    answer: createdRunSchema,
    status: 201,
    reads: { json: createRunBodySchema, text: ["text/plain", "text/csv"], textQuery: createRunQuerySchema },
  },
  async ({ req, actor }) => {
    const { list, opts } = await readRunRequest(req);
    return NextResponse.json(await createRun(list, opts, actor), { status: 201 });
  },
);
