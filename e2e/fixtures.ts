import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test as base, expect, request, type Browser, type Page } from "@playwright/test";
import { freePort, waitFor } from "../scripts/chaos/processes";

// Each Playwright worker runs its own Tally (scripts/e2e-server.mjs: the built server as `npm start`
// runs it, a fresh database in a temp folder, the demo simulator) and signs in to it once. The specs
// turn the simulator's knobs, rotate secrets and fill dead letters: with a server per worker, two
// workers run side by side without seeing each other's faults.

export const E2E_PASSWORD = "e2e operator password";
// The checkout, whatever folder Playwright was started from (the specs are compiled to CommonJS).
const ROOT = path.resolve(__dirname, "..");

export type Tally = { baseURL: string; storageState: string };

/** Prints the server's log lines with the worker's tag, as Playwright's webServer did. */
function relay(server: ChildProcess, tag: string) {
  for (const stream of [server.stdout, server.stderr]) {
    let rest = "";
    stream?.on("data", (d: Buffer) => {
      const lines = (rest + d.toString()).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) if (line.trim()) process.stdout.write(`[${tag}] ${line}\n`);
    });
  }
}

// (`provide` is what Playwright's documentation calls `use`: the React lint takes that name for a hook.)
export const test = base.extend<object, { tally: Tally }>({
  tally: [
    async ({}, provide, workerInfo) => {
      const port = await freePort();
      let authDir: string | undefined;
      const baseURL = `http://127.0.0.1:${port}`;
      const server = spawn(process.execPath, ["scripts/e2e-server.mjs", String(port)], {
        cwd: ROOT,
        env: { ...process.env, E2E_PASSWORD },
        stdio: ["ignore", "pipe", "pipe"],
      });
      relay(server, `tally-${workerInfo.workerIndex}`);
      try {
        // its log lines are relayed as they come, so the error need not repeat them
        await waitFor(`${baseURL}/api/health`, "the e2e server", () => "", 150_000, server);
        // Signed in through the API once per worker; e2e/shell.spec.ts signs in through the form.
        const api = await request.newContext({ baseURL });
        const res = await api.post("/api/auth/login", {
          data: { password: E2E_PASSWORD },
          headers: { origin: baseURL },
        });
        if (!res.ok()) throw new Error(`sign-in failed: ${res.status()} ${await res.text()}`);
        // In a temp folder of the worker's own: several runs in one checkout (each with its NEXT_DIST_DIR)
        // would otherwise overwrite each other's e2e/.auth/operator-<worker>.json, signing into the wrong server.
        authDir = mkdtempSync(path.join(tmpdir(), "tally-e2e-auth-"));
        const storageState = path.join(authDir, "operator.json");
        await api.storageState({ path: storageState });
        await api.dispose();
        await provide({ baseURL, storageState });
      } finally {
        const exited = new Promise((r) => server.once("exit", r));
        server.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (server.exitCode === null) server.kill("SIGKILL");
        if (authDir) rmSync(authDir, { recursive: true, force: true });
      }
    },
    { scope: "worker", timeout: 240_000 },
  ],
  baseURL: async ({ tally }, provide) => provide(tally.baseURL),
  storageState: async ({ tally }, provide) => provide(tally.storageState),
});

/** A signed-in page for hooks (beforeAll/afterAll), which have no `page` of their own. */
export function operatorPage(browser: Browser, tally: Tally): Promise<Page> {
  return browser.newPage({ baseURL: tally.baseURL, storageState: tally.storageState });
}

export { expect };
