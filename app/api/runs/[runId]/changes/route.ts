// GET /api/runs/:runId/changes?change&cursor&limit — a collection run's URLs against the previous run: new, changed, unchanged, gone
import { z } from "zod";
import { changePageSchema, changesQuerySchema, listChanges } from "@/lib/collections";
import { operatorRoute } from "@/lib/http";

export const dynamic = "force-dynamic";

const params = z.object({ runId: z.string().min(1).max(100) });

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "A collection run's URLs against the collection's previous completed run, with the counts per change",
    description:
      "`change` is `new`, `changed`, `unchanged` or `gone` (stored last time, failed or absent now). 409 for a run that is not a collection run or is not classified yet.",
    params,
    query: changesQuerySchema,
    answer: changePageSchema,
    errors: [404, 409],
  },
  ({ params, query }) => listChanges(params.runId, query),
);
