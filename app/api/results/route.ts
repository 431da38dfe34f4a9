// GET /api/results — the change feed over every stored result, resumable from an opaque cursor
import { seesInternalDetail } from "@/lib/auth";
import { operatorRoute } from "@/lib/http";
import { feedQuerySchema, readFeed } from "@/lib/results";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "The change feed over every stored result, resumable from an opaque cursor",
    query: feedQuerySchema,
  },
  ({ query, principal }) => readFeed(query, { detail: seesInternalDetail(principal.role) }),
);
