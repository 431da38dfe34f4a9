// GET /api/operations — recent operation runs (newest first), optionally of one kind
import { z } from "zod";
import { operatorRoute } from "@/lib/http";
import { historyRowSchema, listRuns, runListQuerySchema } from "@/lib/operations";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "Recent operation runs, newest first, optionally of one kind",
    answer: z.object({ items: z.array(historyRowSchema) }),
    query: runListQuerySchema,
  },
  async ({ query }) => ({
    items: (await listRuns({ kind: query.kind, limit: query.limit })).items,
  }),
);
