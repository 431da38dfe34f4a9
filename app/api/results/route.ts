// GET /api/results — the change feed over every stored result, resumable from an opaque cursor
import { operatorRoute } from "@/lib/http/operator-route";
import { feedQuerySchema } from "@/lib/results/contracts";
import { readFeed } from "@/lib/results/feed";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "The change feed over every stored result, resumable from an opaque cursor",
    query: feedQuerySchema,
  },
  ({ query }) => readFeed(query),
);
