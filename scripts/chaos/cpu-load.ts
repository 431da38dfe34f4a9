// --cpu-load: busy-loop child processes, one per core, for as long as the chaos run lasts, so the races
// of a loaded host show (a server slow to answer, a lease renewed late, a kill landing mid-commit).
// Each child spins in slices and exits as soon as the process that started it is gone, so a chaos run
// killed without its cleanup leaves no spinner behind.
import { spawn, type ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";

const SPIN = `const parent = Number(process.argv[1]);
for (;;) {
  const until = Date.now() + 100;
  while (Date.now() < until);
  try { process.kill(parent, 0); } catch { process.exit(0); }
}`;

export type CpuLoad = { processes: number; stop: () => Promise<void> };

export function startCpuLoad(processes = availableParallelism()): CpuLoad {
  const children: ChildProcess[] = Array.from({ length: processes }, () =>
    spawn(process.execPath, ["-e", SPIN, String(process.pid)], { stdio: "ignore" }),
  );
  return {
    processes,
    stop: async () => {
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve();
              c.once("exit", () => resolve());
              c.kill("SIGKILL");
            }),
        ),
      );
    },
  };
}
