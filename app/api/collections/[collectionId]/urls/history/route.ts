// GET /api/collections/:collectionId/urls/history?url= — one URL across the collection's runs, newest first, with its rung
import { z } from "zod";
import { urlHistory, urlHistoryQuerySchema, urlHistorySchema } from "@/lib/collections";
import { operatorRoute } from "@/lib/http";

export const dynamic = "force-dynamic";

const params = z.object({ collectionId: z.string().min(1).max(100) });

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "One URL's history across a collection's runs: state, error, change, the rung that stored it, tokens",
    description:
      "Newest run first; runs whose list did not hold the URL are left out. `remembered` is the rung the next run starts the URL at. Excerpts are plain text. Paged with `cursor` (pass `nextCursor` back).",
    params,
    query: urlHistoryQuerySchema,
    answer: urlHistorySchema,
    errors: [404],
  },
  ({ params, query }) => urlHistory(params.collectionId, query),
);
