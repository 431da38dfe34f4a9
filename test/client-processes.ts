// Several processes calling the simulator through the shared platform client (as servers and workers
// use it), on one database, and the simulator in a process of its own: test/shared-budget.test.ts and
// test/shared-breaker.test.ts.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { ApiCall } from "@/lib/simulator/core";
import type { SimConfigPatch } from "@/lib/simulator/config";
import { API_KEY } from "@/lib/simulator/test-harness.test-util";
import { freePort } from "./tally-server";

/**
 * Starts `n` processes of `script` (each prints "ready", starts when the parent writes a line to stdin,
 * and ends by printing one JSON line), lets them all go at once, and resolves with what each printed.
 */
export async function runClients<T>(opts: {
  script: string;
  n: number;
  databaseUrl: string;
  simUrl: string;
  env: Record<string, string>;
  onGo?: () => void;
}): Promise<T[]> {
  const children: ChildProcess[] = [];
  const outputs: string[] = [];
  const ready: Promise<void>[] = [];
  const done: Promise<T>[] = [];
  for (let i = 0; i < opts.n; i++) {
    const child = spawn(path.resolve("node_modules/.bin/tsx"), ["--conditions=react-server", opts.script], {
      env: {
        ...process.env,
        NODE_ENV: "test",
        DATABASE_URL: opts.databaseUrl,
        SCRAPER_API_BASE_URL: opts.simUrl,
        GEONODE_SCRAPER_API_KEY: API_KEY,
        TALLY_OPERATOR_PASSWORD: "correct horse battery",
        ...opts.env,
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    children.push(child);
    outputs.push("");
    ready.push(
      new Promise((resolve) => {
        child.stdout?.on("data", (d: Buffer) => {
          outputs[i] += d.toString();
          if (outputs[i].includes("ready")) resolve();
        });
      }),
    );
    child.stderr?.on("data", (d: Buffer) => (outputs[i] += d.toString()));
    done.push(
      new Promise((resolve, reject) =>
        child.on("exit", (code) => {
          const last = outputs[i].trim().split("\n").pop() ?? "";
          if (code === 0 && last.startsWith("{")) resolve(JSON.parse(last) as T);
          else reject(new Error(`${opts.script} ${i} exited ${code}:\n${outputs[i]}`));
        }),
      ),
    );
  }
  await Promise.all(ready);
  for (const c of children) c.stdin?.write("go\n");
  opts.onGo?.();
  return Promise.all(done);
}

/**
 * The simulator in a process of its own, so the arrival times it records are not held up by this
 * test process's own work (spawning, reading the children's output).
 */
export async function simProcess(config: SimConfigPatch = {}) {
  const port = await freePort();
  const child = spawn(
    path.resolve("node_modules/.bin/tsx"),
    [
      "--conditions=react-server",
      "scripts/sim.ts",
      "--port",
      String(port),
      "--api-key",
      API_KEY,
      "--quiet",
      "--config",
      JSON.stringify(config),
    ],
    { stdio: "ignore" },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/_sim/config`)).ok) break;
    } catch {
      if (i > 300) throw new Error("simulator did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const post = (route: string, body: unknown) =>
    fetch(`${url}${route}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  return {
    url,
    calls: async () => ((await (await fetch(`${url}/_sim/calls`)).json()) as { calls: ApiCall[] }).calls,
    injectFaults: (body: unknown) => post("/_sim/faults", body),
    setConfig: async (patch: SimConfigPatch) => {
      const res = await post("/_sim/config", patch);
      if (!res.ok) throw new Error(`simulator config refused: ${res.status} ${await res.text()}`);
    },
    close: () =>
      new Promise<void>((resolve) =>
        child.exitCode !== null ? resolve() : (child.once("exit", () => resolve()), child.kill("SIGTERM")),
      ),
  };
}
