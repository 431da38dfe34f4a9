const BUSY = new Set(["SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT", "SQLITE_LOCKED"]);

/** A busy error from better-sqlite3 itself, or as Prisma's SQLite adapter wraps it. */
function isBusy(err: unknown): boolean {
  const e = err as { code?: unknown; cause?: { originalCode?: unknown } } | null;
  const code = e?.code ?? e?.cause?.originalCode;
  return typeof code === "string" && BUSY.has(code);
}

/**
 * Runs a SQLite statement (a synchronous one, or the adapter's), retrying asynchronously (backoff
 * with jitter, the event loop free) while another connection holds the write lock, until `budgetMs`
 * has passed; then the busy error.
 */
export async function withBusyRetry<T>(fn: () => T | Promise<T>, budgetMs = 5000): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    try {
      return await fn();
    } catch (err) {
      if (!isBusy(err) || Date.now() >= deadline) throw err;
      await new Promise((r) =>
        setTimeout(r, Math.min(wait * (0.5 + Math.random()), Math.max(1, deadline - Date.now()))),
      );
    }
  }
}
