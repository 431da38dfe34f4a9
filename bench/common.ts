// Shared by the benchmark scripts: the machine they ran on (figures mean little without it) and the
// cached large database the dashboard figures use.
import os from "node:os";
import path from "node:path";

/** Seeded by `npm run bench:dashboard` on first use and kept: seeding takes minutes. */
export const DEFAULT_LARGE_DB = path.join(os.tmpdir(), "tally-bench-large", "tally.db");

export function machine(): string {
  const cpus = os.cpus();
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  return `Machine: ${cpus.length} cores, ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}; load average ${load} at ${new Date().toISOString()}`;
}
