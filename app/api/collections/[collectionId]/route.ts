// GET /api/collections/:collectionId — the collection, its last 20 runs and ticks; POST — replace its list or settings (the next run uses them)
import { z } from "zod";
import {
  collectionDetailQuerySchema,
  collectionDetailSchema,
  collectionSummarySchema,
  getCollection,
  readCollectionRequest,
  updateCollection,
} from "@/lib/collections";
import { operatorRoute } from "@/lib/http";

export const dynamic = "force-dynamic";

const params = z.object({ collectionId: z.string().min(1).max(100) });

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "A collection with its last 20 runs (trigger, counts, changes) and its last 20 scheduled ticks",
    description: "`?urls=1` adds the list itself, one URL a line.",
    params,
    query: collectionDetailQuerySchema,
    answer: collectionDetailSchema,
    errors: [404],
  },
  ({ params, query }) => getCollection(params.collectionId, { withUrls: query.urls === "1" || query.urls === "true" }),
);

export const POST = operatorRoute(
  {
    role: "operator",
    summary: "Replace a collection's list or settings; the next run uses them",
    description:
      "The fields of a create, each optional (JSON), or a new list as `text/plain` / `text/csv` with settings in the query. A changed schedule or time zone counts its next tick from now; `schedule: null` removes the schedule.",
    params,
    answer: collectionSummarySchema,
    errors: [404],
  },
  async ({ params, req, actor }) =>
    updateCollection(params.collectionId, await readCollectionRequest(req, "update"), actor),
);
