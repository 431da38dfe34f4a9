// Starts the built app (what `npm start` runs) on a free port with its own database, for tests over
// real HTTP.
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { inject } from "vitest";
import type { TallyConfig } from "@/lib/config";
import { slot } from "@/lib/runtime";
import { serverBundle } from "../scripts/server-bundle.mjs";
import { adminQuery, postgresUrl, TEST_STORE, testDatabaseName } from "./store";

export type TallyServer = {
  url: string;
  dbUrl: string;
  env: Record<string, string>;
  output: () => string;
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Sends a signal without restarting; resolves with the exit code once the process is gone. */
  signal(signal: NodeJS.Signals): Promise<number | null>;
  stop(): Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === "object" && addr ? addr.port : 0));
    });
  });
}

export const TEST_ENV = {
  TALLY_OPERATOR_PASSWORD: "correct horse battery",
  TALLY_API_TOKEN: "test-token-0123456789abcdef",
  TALLY_SESSION_SECRET: "test-session-secret-0123456789abcdef0123",
};

/** What `npm start` runs (built by `npm run build`). */
export const SERVER_BUNDLE = serverBundle;

/**
 * Tally's server (as `npm start` runs it; requires `npm run build`) against `database` (a SQLite file
 * path or a database URL, e.g. a TestDb's `url`), or else a fresh copy of the migrated template.
 * `nextStart`: plain `next start` instead (no server.ts: Next owns the process and its signals).
 */
export async function startTally(
  env: Record<string, string> = {},
  database?: string,
  opts: { nextStart?: boolean } = {},
): Promise<TallyServer> {
  const dir = mkdtempSync(path.join(tmpdir(), "tally-srv-"));
  const dbFile = database && /^(file:|postgres(ql)?:\/\/)/.test(database) ? undefined : database;
  const file = dbFile ?? path.join(dir, "tally.db");
  // A caller that names its database brings it migrated; otherwise a copy of the migrated template
  // of the store under test (a PostgreSQL database of its own, dropped at stop()).
  let ownDatabase: string | null = null;
  let databaseUrl = database && !dbFile ? database : `file:${file}`;
  if (!database && !env.DATABASE_URL) {
    if (TEST_STORE === "postgres") {
      ownDatabase = testDatabaseName("tally_srv");
      await adminQuery(`CREATE DATABASE "${ownDatabase}" TEMPLATE "${inject("templateDb")}"`);
      databaseUrl = postgresUrl(ownDatabase);
    } else {
      copyFileSync(inject("templateDb"), file);
    }
  }
  const port = await freePort();
  const fullEnv: Record<string, string> = {
    ...TEST_ENV,
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    TALLY_HOST: "127.0.0.1",
    TALLY_PUBLIC_URL: `http://127.0.0.1:${port}`,
    TALLY_DEMO_TRAFFIC: "off",
    // A lighter start (a test's server serves a few routes): each page or route loads on its first request.
    TALLY_PRELOAD_ROUTES: "off",
    // Page bodies: beside a database of its own; with a test's database (createTestDb), in that test's store.
    TALLY_BODY_STORE: database ? testBodyStore(dir) : `file:${path.join(dir, "bodies")}`,
    ...env,
  };
  let out = "";
  let child: ChildProcess = launch();
  function launch() {
    const args = opts.nextStart
      ? [path.resolve("node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"]
      : [SERVER_BUNDLE];
    const c = spawn(process.execPath, args, {
      env: { ...process.env, ...fullEnv },
      stdio: ["ignore", "pipe", "pipe"],
    });
    c.stdout?.on("data", (d) => (out += d));
    c.stderr?.on("data", (d) => (out += d));
    return c;
  }
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(url, () => out);
  const exited = (c: ChildProcess) =>
    new Promise<void>((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.once("exit", () => r())));
  return {
    url,
    dbUrl: fullEnv.DATABASE_URL,
    env: fullEnv,
    output: () => out,
    async kill(signal = "SIGKILL") {
      child.kill(signal);
      await exited(child);
      child = launch();
      await waitUntilUp(url, () => out);
    },
    async signal(signal) {
      child.kill(signal);
      await exited(child);
      return child.exitCode;
    },
    async stop() {
      child.kill("SIGTERM");
      await exited(child);
      if (!database) rmSync(dir, { recursive: true, force: true });
      if (ownDatabase) await adminQuery(`DROP DATABASE IF EXISTS "${ownDatabase}" WITH (FORCE)`);
    },
  };
}

export type Exited = { code: number | null; out: string };

/** Runs a command to its exit (SIGKILL after timeoutMs); resolves with its code and all it printed. */
export function runToExit(
  command: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 50_000,
): Promise<Exited> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout?.on("data", (d) => (out += d));
    child.stderr?.on("data", (d) => (out += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

async function waitUntilUp(url: string, output: () => string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`Tally did not start at ${url}:\n${output()}`);
}

/** The body store of the test's own configuration (createTestDb sets it), else one in `dir`. */
function testBodyStore(dir: string): string {
  const own = slot<TallyConfig>("config").get();
  return own?.TALLY_BODY_STORE ?? `file:${path.join(dir, "bodies")}`;
}
