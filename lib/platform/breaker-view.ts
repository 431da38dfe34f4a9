import "server-only";
import type { BudgetView } from "./budget-contracts";
import { CLOSED, type BreakerRow } from "./shared-breaker-store";

const iso = (ms: number) => (ms > 0 ? new Date(ms).toISOString() : null);

/** The shared breaker's row as the API budget view shows it. */
export function breakerView(row: BreakerRow = CLOSED, nowMs = Date.now()): BudgetView["breaker"] {
  const open = row.downSince !== 0;
  const probing = open && row.probeUntil > nowMs && row.probeBy !== "";
  return {
    state: probing ? "probing" : open ? "open" : "closed",
    since: open ? iso(row.downSince) : null,
    openedBy: row.downBy || null,
    reason: row.downReason || null,
    failedInARow: open ? row.downFailures : 0,
    nextProbeAt: open ? iso(row.probeAt) : null,
    // The lease's holder is "host:pid:tag#sequence": the process is what an operator needs.
    probingBy: probing ? row.probeBy.split("#")[0] : null,
    closedAt: iso(row.upAt),
    closedBy: row.upBy || null,
  };
}
