// Child processes for the chaos run: the simulator and Tally, each on a free loopback port.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { serverBundle } from "../server-bundle.mjs";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === "object" && addr ? addr.port : 0));
    });
  });
}

/** Waits until `url` answers 2xx; with `child`, gives up at once if that process has exited. */
export async function waitFor(
  url: string,
  what: string,
  output: () => string,
  timeoutMs = 60_000,
  child?: ChildProcess,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && (child.exitCode !== null || child.signalCode !== null))
      throw new Error(
        `${what} exited (${child.exitCode ?? child.signalCode}) before answering at ${url}\n${output().slice(-3000)}`,
      );
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not come up at ${url}\n${output().slice(-3000)}`);
}

const exited = (c: ChildProcess) =>
  new Promise<void>((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.once("exit", () => r())));

/** Extra node flags from an environment variable (space-separated, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`). */
function nodeArgsFrom(variable: string): string[] {
  return process.env[variable]?.split(" ").filter(Boolean) ?? [];
}

export type Proc = { url: string; output: () => string; stop(): Promise<void> };

export async function startSimulator(seed: number): Promise<Proc & { pid(): number | undefined }> {
  const port = await freePort();
  let out = "";
  const child = spawn(
    path.resolve("node_modules/.bin/tsx"),
    [
      // BENCH_SIM_NODE_ARGS: extra node flags for the simulator (e.g. --cpu-prof), as for the server.
      ...nodeArgsFrom("BENCH_SIM_NODE_ARGS"),
      "--conditions=react-server",
      "scripts/sim.ts",
      "--port",
      String(port),
      "--seed",
      String(seed),
      "--mode",
      "test",
      "--quiet",
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout?.on("data", (d) => (out += d));
  child.stderr?.on("data", (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/health`, "the simulator", () => out);
  return {
    url,
    output: () => out,
    pid: () => child.pid,
    async stop() {
      child.kill("SIGTERM");
      await exited(child);
    },
  };
}

export type TallyProc = Proc & {
  port: number;
  /** The server process's id now (a restart gives a new one). */
  pid(): number | undefined;
  kill(): Promise<void>;
  restart(): Promise<void>;
};

/** Tally's server as `npm start` runs it, with the given environment; kill() is SIGKILL, as in a crash. */
export async function startTallyProcess(
  env: Record<string, string>,
  opts: { nodeArgs?: string[] } = {},
): Promise<TallyProc> {
  const port = Number(env.PORT);
  let out = "";
  let child: ChildProcess;
  const launch = () => {
    // BENCH_SERVER_NODE_ARGS: extra node flags for the server (e.g. --cpu-prof), for looking into a figure.
    const nodeArgs = [...(opts.nodeArgs ?? []), ...nodeArgsFrom("BENCH_SERVER_NODE_ARGS")];
    child = spawn(process.execPath, [...nodeArgs, serverBundle], {
      env: { ...process.env, TALLY_HOST: "127.0.0.1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (d) => (out += d));
    child.stderr?.on("data", (d) => (out += d));
  };
  launch();
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/api/health`, "Tally", () => out);
  return {
    url,
    port,
    output: () => out,
    pid: () => child.pid,
    async kill() {
      child.kill("SIGKILL");
      await exited(child);
    },
    async restart() {
      launch();
      await waitFor(`${url}/api/health`, "Tally (restart)", () => out);
    },
    async stop() {
      child.kill("SIGTERM");
      await exited(child);
    },
  };
}

export type WorkerProc = {
  pid: () => number | undefined;
  output: () => string;
  kill(): Promise<void>;
  restart(): void;
  stop(): Promise<void>;
};

/**
 * `npm run worker` with the given environment, as one node process (tsx as a loader, not its CLI,
 * which would put a second process between us and the worker: a SIGKILL must hit the worker itself).
 * Output keeps its last 20 kB.
 */
export function startWorkerProcess(env: Record<string, string>): WorkerProc {
  let out = "";
  let child: ChildProcess;
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-20_000);
  };
  const launch = () => {
    // BENCH_WORKER_NODE_ARGS: extra node flags for each worker process, as for the server.
    child = spawn(
      process.execPath,
      [...nodeArgsFrom("BENCH_WORKER_NODE_ARGS"), "--import", "tsx", "--conditions=react-server", "scripts/worker.ts"],
      {
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
  };
  launch();
  return {
    pid: () => child.pid,
    output: () => out,
    async kill() {
      child.kill("SIGKILL");
      await exited(child);
    },
    restart: launch,
    async stop() {
      child.kill("SIGTERM");
      await exited(child);
    },
  };
}

/** The credentials every chaos process and the harness share. */
export const CHAOS_TOKEN = "chaos-token-0123456789abcdef";
export const CHAOS_API_KEY = "chaos-api-key";

/** The environment every process of a chaos run shares (a mode adds its own settings on top). */
export function chaosEnv(o: { storeUrl: string; simUrl: string; publicUrl: string; apiRps: number }) {
  return {
    DATABASE_URL: o.storeUrl,
    GEONODE_SCRAPER_API_KEY: CHAOS_API_KEY,
    SCRAPER_API_BASE_URL: o.simUrl,
    TALLY_OPERATOR_PASSWORD: "chaos operator password",
    TALLY_SESSION_SECRET: "chaos-session-secret-0123456789abcdef012345",
    TALLY_API_TOKEN: CHAOS_TOKEN,
    TALLY_PUBLIC_URL: o.publicUrl,
    TALLY_RECONCILE_INTERVAL_MINUTES: "0",
    TALLY_API_RPS: String(o.apiRps),
    TALLY_WORKER_CONCURRENCY: "8",
    TALLY_LEASE_SECONDS: "5",
    TALLY_POLL_NO_WEBHOOK_SECONDS: "20",
    TALLY_LOG_LEVEL: "warn",
  };
}

/**
 * The servers on `ports` and `workerCount` `npm run worker` processes. With workers, the reference
 * deployment: servers with the worker off (and the schedules on: single-flight), workers without schedules.
 */
export async function startFleet(
  common: Record<string, string>,
  ports: number[],
  workerCount: number,
): Promise<{ servers: TallyProc[]; workers: WorkerProc[] }> {
  const serverRoles: Record<string, string> = workerCount > 0 ? { TALLY_WORKER: "off", TALLY_SCHEDULER: "on" } : {};
  const servers = await Promise.all(
    ports.map((port) => startTallyProcess({ ...common, ...serverRoles, PORT: String(port) })),
  );
  const workers = Array.from({ length: workerCount }, () => startWorkerProcess({ ...common, TALLY_SCHEDULER: "off" }));
  return { servers, workers };
}
