// Helpers for the container tests (vitest.containers.config.mts): the engine, commands run without
// blocking the test's event loop, free ports, and what each test made, removed when it ends.
import { spawn } from "node:child_process";
import net from "node:net";
import { containerEngine } from "../../scripts/image.mjs";

export type Run = { code: number | null; stdout: string; stderr: string };
type Env = Record<string, string | undefined>;

/** Runs a command to its end (never throws; the caller asserts on the code). */
export function sh(cmd: string, args: string[], opts: { env?: Env; timeoutMs?: number } = {}) {
  return new Promise<Run>((resolve) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...opts.env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = opts.timeoutMs ? setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs) : undefined;
    child.on("error", (err) => resolve({ code: null, stdout, stderr: stderr + String(err) }));
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs a command that must succeed; its stdout. */
export async function must(cmd: string, args: string[], opts: { env?: Env; timeoutMs?: number } = {}) {
  const r = await sh(cmd, args, opts);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.code}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

/** Why containers cannot run here (null: they can), checked once. */
export function containersUnavailable(): string | null {
  const { engine, reason } = containerEngine();
  if (!engine) return reason;
  if (engine !== "podman") return `the container tests drive Podman (podman-compose); found ${engine}`;
  return null;
}

export const REQUIRED = process.env.TALLY_REQUIRE_PODMAN === "1";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it returns a value (not undefined) or `ms` pass. */
export async function waitFor<T>(what: string, ms: number, probe: () => Promise<T | undefined>, everyMs = 250) {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** GET a URL on 127.0.0.1: status and JSON (or text), or undefined when nothing answers. */
export async function get(url: string): Promise<{ status: number; body: unknown } | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // text
    }
    return { status: res.status, body };
  } catch {
    return undefined;
  }
}

export const randomName = (prefix: string) => `${prefix}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
