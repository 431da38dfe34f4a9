import "server-only";
import { audit } from "./audit";
import { log } from "../log";

// Every operator mutation leaves an audit row (who, what, target), also when it fails.
// Details must never carry a secret: callers pass counts and ids only.

export type AuditEntry = { actor: string; action: string; target?: string | null; detail?: Record<string, unknown> };

/** `describe` adds result details; `ok` says whether a result that did not throw still is a failure. */
export async function audited<T>(
  entry: AuditEntry,
  fn: () => Promise<T>,
  describe?: (result: T) => Record<string, unknown>,
  ok?: (result: T) => boolean,
): Promise<T> {
  try {
    const result = await fn();
    await safeAudit({ ...entry, detail: { ...entry.detail, ...describe?.(result) }, ok: ok ? ok(result) : true });
    return result;
  } catch (err) {
    await safeAudit({
      ...entry,
      detail: { ...entry.detail, error: err instanceof Error ? err.message : String(err) },
      ok: false,
    });
    throw err;
  }
}

async function safeAudit(e: AuditEntry & { ok: boolean }) {
  try {
    await audit(e);
  } catch (err) {
    // The action's own result matters more than its audit row; losing one is logged loudly.
    log.error("audit log write failed", { action: e.action, target: e.target, error: String(err) });
  }
}
