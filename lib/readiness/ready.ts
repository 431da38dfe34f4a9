import "server-only";
import { z } from "zod";
import { bodyStore } from "../bodies";
import { getConfig, storeOf } from "../config";
import { MIGRATION_DIRS, migrationsIn } from "../db-copy";
import { db } from "../db";
import { log } from "../log";
import { isDraining } from "../runtime";

// GET /api/ready: may a load balancer send this process traffic? Yes only when the database answers, it
// has every migration this version ships, the body store takes a write and the process is not
// stopping. Strangers learn the failing check's code, never its message (paths, hosts): the message
// goes to the log, once per change. /api/health stays the liveness check (the database alone).

export const READY_REASONS = [
  "database_unreachable",
  "migrations_pending",
  "body_store_unwritable",
  "draining",
] as const;
export type ReadyReason = (typeof READY_REASONS)[number];

export const readyOkSchema = z.object({ ready: z.literal(true) });
export const notReadySchema = z.object({
  ready: z.literal(false),
  reason: z
    .enum(READY_REASONS)
    .describe(
      "database_unreachable: no answer from DATABASE_URL; migrations_pending: a migration this version ships is not applied (run `npm run db:migrate`); body_store_unwritable: a probe write to TALLY_BODY_STORE failed; draining: the process got SIGTERM and is stopping",
    ),
});
export type Readiness = z.infer<typeof readyOkSchema> | z.infer<typeof notReadySchema>;

/** The checks' result is reused this long: a probe every few seconds from each balancer costs little. */
export const READY_CACHE_MS = 2000;
/** A check that takes longer than this has failed (a database or disk that hangs is not ready). */
const CHECK_TIMEOUT_MS = 3000;

type Checked = { at: number; failure: { reason: ReadyReason; message: string } | null };
let last: Checked | null = null;
let pending: Promise<Checked> | null = null;
let lastLogged: string | null = null;
/** The migrations this version ships, read once: a process runs the version it started with. */
const shipped = new Map<string, string[]>();

export async function checkReadiness(): Promise<Readiness> {
  if (isDraining()) return { ready: false, reason: "draining" };
  const now = Date.now();
  if (!last || now - last.at >= READY_CACHE_MS) {
    pending ??= runChecks().finally(() => (pending = null));
    last = await pending;
  }
  // A signal that came while the checks ran wins.
  if (isDraining()) return { ready: false, reason: "draining" };
  return last.failure ? { ready: false, reason: last.failure.reason } : { ready: true };
}

async function runChecks(): Promise<Checked> {
  const failure = (await checkDatabase()) ?? (await checkBodyStore());
  const said = failure ? `${failure.reason}: ${failure.message}` : "ready";
  if (said !== lastLogged) {
    if (failure) log.warn("not ready", { reason: failure.reason, error: failure.message });
    else if (lastLogged !== null) log.info("ready again");
    lastLogged = said;
  }
  return { at: Date.now(), failure };
}

async function checkDatabase(): Promise<Checked["failure"]> {
  const { DATABASE_URL } = getConfig();
  const store = storeOf(DATABASE_URL);
  let applied: string[];
  try {
    const rows = await within(
      db().$queryRawUnsafe<{ migration_name: string }[]>(
        "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
      ),
      "the database",
    );
    applied = rows.map((r) => r.migration_name);
  } catch (err) {
    const message = firstLine(err);
    // A database that answers but was never migrated has no table of migrations (not to be confused
    // with PostgreSQL's 'database "…" does not exist', which is unreachable).
    if (/no such table: _prisma_migrations|relation "_prisma_migrations" does not exist/i.test(message))
      return { reason: "migrations_pending", message };
    return { reason: "database_unreachable", message };
  }
  let ours = shipped.get(store);
  if (!ours) shipped.set(store, (ours = migrationsIn(MIGRATION_DIRS[store])));
  // Migrations the database has and this version does not know are a newer version's (a rolling deploy
  // that migrated first): additive by the migration workflow, so this process stays ready beside it.
  const missing = ours.filter((m) => !applied.includes(m));
  if (missing.length === 0) return null;
  return { reason: "migrations_pending", message: `not applied: ${missing.join(", ")} (run npm run db:migrate)` };
}

async function checkBodyStore(): Promise<Checked["failure"]> {
  try {
    // The store's own check: a probe file written, fsynced and removed (.tmp-check-…, which the sweep
    // ignores); on S3, the bucket answers.
    await within(bodyStore().check(), "the body store");
    return null;
  } catch (err) {
    return { reason: "body_store_unwritable", message: firstLine(err) };
  }
}

function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)),
      CHECK_TIMEOUT_MS,
    );
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** The error on one line: Prisma's messages start with a blank line and name the query on the next. */
function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\s+/g, " ").trim().slice(0, 500);
}
