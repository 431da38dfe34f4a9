import "server-only";
import { Prisma } from "@/generated/prisma/client";
import type { Store } from "../config";
import { dialect } from "../db";

// THE SEAM: where a stored result sits in the change feed, and which results a reader may be shown
// yet. A feed cursor must never pass a row that commits later, so the position must only ever grow
// in commit order among the rows a reader can see.
//
// SQLite (today): writes are serialized (one write lock, BEGIN IMMEDIATE in lib/db.ts) and Result.id
// is an AUTOINCREMENT rowid handed out while the writer holds that lock, so commit order is id order:
// once a reader sees id N, every row that will ever get an id below N has already committed. The
// position is the id; everything committed is visible.
//
// PostgreSQL: sequence values are taken at INSERT time and transactions commit in any order, so a
// reader paging by id can pass a gap that a slower transaction fills a moment later. Each row keeps
// the id of the transaction that wrote it (`txid xid8 DEFAULT pg_current_xact_id()`, index
// (txid, id)); the position is the pair (txid, id), the cursor tag "f2", and only rows with
// `txid < pg_snapshot_xmin(pg_current_snapshot())` are shown: below the oldest transaction still
// running, nothing can commit any more. Rows of a long transaction then appear late but in order,
// never behind a cursor already handed out.

export type FeedStore = Store;

export type FeedWindow = {
  /** Cursor tag and the number of parts of a position in it. */
  tag: string;
  parts: number;
  /** Position of the feed's start (before the first row). */
  start: number[];
  /** SQL condition (on alias r) for rows after `position` that a reader may see now. */
  after(position: number[]): Prisma.Sql;
  /** SQL ORDER BY list (alias r) that is feed order. */
  orderBy: Prisma.Sql;
  /** Extra SELECT columns (alias r, each with a leading comma) that positionOf() reads. */
  columns: Prisma.Sql;
  /** The position of a row read by the feed. */
  positionOf(row: { id: number; txid?: number | null }): number[];
};

const sqlite: FeedWindow = {
  tag: "f1",
  parts: 1,
  start: [0],
  after: ([id]) => Prisma.sql`r."id" > ${id}`,
  orderBy: Prisma.sql`r."id" ASC`,
  columns: Prisma.empty,
  positionOf: (row) => [row.id],
};

const postgres: FeedWindow = {
  tag: "f2",
  parts: 2,
  start: [0, 0],
  after: ([txid, id]) => Prisma.sql`(r."txid", r."id") > (${String(txid)}::xid8, ${id})
    AND r."txid" < pg_snapshot_xmin(pg_current_snapshot())`,
  orderBy: Prisma.sql`r."txid" ASC, r."id" ASC`,
  columns: Prisma.sql`, r."txid"::text AS "txid"`,
  positionOf: (row) => {
    if (row.txid == null) throw new Error("a PostgreSQL feed row without its txid");
    return [row.txid, row.id];
  },
};

/** The feed's position and visibility bound for the store in use. */
export function feedWindow(store: FeedStore = dialect()): FeedWindow {
  return store === "postgres" ? postgres : sqlite;
}
