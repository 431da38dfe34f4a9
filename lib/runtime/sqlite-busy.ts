const BUSY = new Set(["SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT", "SQLITE_LOCKED"]);

/**
 * Runs a synchronous SQLite write, retrying asynchronously (backoff with jitter, the event loop free)
 * while another connection holds the write lock, until `budgetMs` has passed; then the busy error.
 */
export async function withBusyRetry<T>(fn: () => T, budgetMs = 5000): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    try {
      return fn();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (!code || !BUSY.has(code) || Date.now() >= deadline) throw err;
      await new Promise((r) =>
        setTimeout(r, Math.min(wait * (0.5 + Math.random()), Math.max(1, deadline - Date.now()))),
      );
    }
  }
}
