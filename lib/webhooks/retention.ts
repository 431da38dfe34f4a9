import "server-only";
import { getConfig } from "../config";
import { db } from "../db";
import { log } from "../log";
import { onServerStart } from "../runtime/boot";

// Keeps the inbound delivery log bounded: rows older than the retention period are deleted hourly.

export async function pruneInboundLog(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - getConfig().TALLY_INBOUND_LOG_RETENTION_DAYS * 86_400_000);
  const { count } = await db().inboundDelivery.deleteMany({ where: { receivedAt: { lt: cutoff } } });
  return count;
}

const HOUR = 3_600_000;

onServerStart(() => {
  const run = () =>
    pruneInboundLog()
      .then((n) => n > 0 && log.info("inbound log pruned", { rows: n }))
      .catch((err) => log.warn("inbound log pruning failed", { error: String(err) }));
  void run();
  setInterval(run, HOUR).unref();
});
