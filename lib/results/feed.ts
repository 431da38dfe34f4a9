import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { encodeCursor } from "../keyset";
import type { FeedPage, FeedQuery } from "./contracts";
import { feedWindow } from "./position";
import type { BodyAudience } from "./bodies";
import { selectRows, toFeedItem } from "./rows";

// The change feed over every stored result: feed order is commit order (see position.ts), so a
// consumer that stores nextCursor and resumes from it never skips and never repeats a result, even
// while the worker commits new ones. At the end of the feed the cursor stays where it was, so the
// consumer polls from it; it is never null. A body the store cannot give now (issue 50) is said by row
// (bodyError `body_unavailable: …`), the page answered 200: the cursor before it is still good, so a
// consumer that needs every body asks for the page again later, or reads that job's results.

export async function readFeed(query: FeedQuery, audience: BodyAudience = {}): Promise<FeedPage> {
  const w = feedWindow();
  const after = query.after ?? w.start;
  const where = [w.after(after)];
  if (query.kind) where.push(Prisma.sql`j."kind" = ${query.kind}`);
  if (query.jobId) where.push(Prisma.sql`r."jobId" = ${query.jobId}`);
  const rows = await selectRows(where, w.orderBy, query.limit + 1, { ...audience, unavailable: "report" });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(toFeedItem),
    nextCursor: encodeCursor(w.tag, last ? w.positionOf(last) : after),
    hasMore: rows.length > query.limit,
  };
}
