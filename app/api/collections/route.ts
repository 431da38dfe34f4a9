// GET /api/collections — collections, newest first, each with its last run; POST /api/collections — save a named URL list with a schedule
import { NextResponse } from "next/server";
import {
  collectionListQuerySchema,
  collectionListSchema,
  collectionSummarySchema,
  createCollection,
  listCollections,
  readCollectionRequest,
} from "@/lib/collections";
import { operatorRoute } from "@/lib/http";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "Collections, newest first, each with its schedule in words and its last run",
    query: collectionListQuerySchema,
    answer: collectionListSchema,
  },
  ({ query }) => listCollections(query),
);

export const POST = operatorRoute(
  {
    role: "operator",
    summary: "Save a collection: a named URL list with run settings and an optional schedule",
    description:
      'JSON `{"name", "urls", "schedule"?, "timezone"?, "formats"?, "renderJs"?, "ignorePatterns"?, "overlap"?}`, or the list as `text/plain` / `text/csv` with `?name=&schedule=&timezone=&formats=&renderJs=&overlap=`. `schedule` is a cron expression (five fields, or six with seconds first) in the IANA `timezone` (default UTC); `overlap` is `skip` (default) or `queue`; `ignorePatterns` are regular expressions removed before a page is fingerprinted. A bad line, schedule, time zone or pattern answers 400 and saves nothing.',
    answer: collectionSummarySchema,
    status: 201,
  },
  async ({ req, actor }) =>
    NextResponse.json(await createCollection(await readCollectionRequest(req, "create"), actor), { status: 201 }),
);
