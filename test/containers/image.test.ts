// The image as a user meets it (issue 48): `podman run` with no settings at all starts demo mode and
// prints the login, /api/ready turns 200, the demo's jobs are stored in /data, and `podman stop`
// (SIGTERM, SIGKILL after 10 s) ends it by itself with exit 0 and no queue item held. Bad settings end
// it with the one message `npm start` prints, and /api/ready names the check that fails.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, inject, it } from "vitest";
import { get, must, randomName, type Run, sh, waitFor } from "./harness";

const images = inject("containers");
const skipped = "skipped" in images ? images.skipped : null;
if (skipped) console.log(`containers: SKIPPED (${skipped}); TALLY_REQUIRE_PODMAN=1 makes this a failure`);

// The container's own output, without Podman's log lines (e.g. about health checks where there is no systemd).
const ours = (r: Run): Run => ({ ...r, stderr: r.stderr.replace(/^time="[^\n]*\n?/gm, "") });

const made: { containers: string[]; volumes: string[]; dirs: string[] } = { containers: [], volumes: [], dirs: [] };
afterAll(async () => {
  for (const c of made.containers) await sh("podman", ["rm", "--force", "--time", "0", c]);
  for (const v of made.volumes) await sh("podman", ["volume", "rm", "--force", v]);
  for (const d of made.dirs) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(skipped)("the image", () => {
  const image = "tally" in images ? images.tally : "";

  async function start(args: string[] = []) {
    const name = randomName("tally-test-image");
    const volume = `${name}-data`;
    made.containers.push(name);
    made.volumes.push(volume);
    await must("podman", [
      "run",
      "-d",
      "--name",
      name,
      "-p",
      "127.0.0.1::3000",
      "-v",
      `${volume}:/data`,
      ...args,
      image,
    ]);
    const port = (await must("podman", ["port", name, "3000"])).trim().split(":").pop();
    return { name, url: `http://127.0.0.1:${port}` };
  }
  const logs = async (name: string) => {
    const r = await sh("podman", ["logs", name]);
    return r.stdout + r.stderr;
  };
  const sqlite = async (name: string, sql: string) =>
    JSON.parse(
      await must("podman", [
        "exec",
        name,
        "node",
        "-e",
        `const D = require("better-sqlite3"); const db = new D("/data/tally.db", { readonly: true }); console.log(JSON.stringify(db.prepare(process.argv[1]).all()))`,
        sql,
      ]),
    ) as Record<string, unknown>[];

  it("starts with no settings in demo mode, prints the login, turns ready, stores demo jobs, and stops cleanly", async () => {
    const t0 = Date.now();
    const tally = await start();
    const ready = await waitFor("GET /api/ready = 200", 60_000, async () => {
      const r = await get(`${tally.url}/api/ready`);
      return r?.status === 200 ? r : undefined;
    });
    const readyAfter = Date.now() - t0;
    expect(ready.body).toEqual({ ready: true });
    // The image's HEALTHCHECK (run here by hand: Podman schedules it through systemd, absent here).
    expect((await sh("podman", ["healthcheck", "run", tally.name])).code).toBe(0);
    expect(await logs(tally.name)).toMatch(/Login\s+admin@localhost, password \S+/);
    expect(await logs(tally.name)).toContain("Database ready: file:/data/tally.db");
    // The demo trickle's first job (one every 15 s) is fetched and stored by the worker in the server.
    const stored = await waitFor(
      "a stored demo job",
      120_000,
      async () => {
        const rows = await sqlite(tally.name, `SELECT "id" FROM "Job" WHERE "outcome" = 'stored'`);
        return rows.length > 0 ? rows : undefined;
      },
      1000,
    );
    expect(stored.length).toBeGreaterThan(0);
    // Bodies went to /data/bodies, the SQLite file to /data: the volume holds all state.
    expect(await must("podman", ["exec", tally.name, "ls", "/data"])).toMatch(/bodies[\s\S]*tally\.db/);

    // podman stop: SIGTERM, then SIGKILL after 10 s. The server drains and exits 0 by itself (a SIGKILL
    // would show as 137), within TALLY_SHUTDOWN_GRACE_MS (8 s: no "grace ran out").
    const t1 = Date.now();
    await must("podman", ["stop", "--time", "10", tally.name]);
    const stoppedAfter = Date.now() - t1;
    const size = Number(await must("podman", ["image", "inspect", "--format", "{{.Size}}", image]));
    // Figures for docs/operations/deployment.md (measured, not asserted).
    console.log(
      `image: ${(size / 1e6).toFixed(0)} MB; podman run to /api/ready 200: ${(readyAfter / 1000).toFixed(1)} s; podman stop: ${(stoppedAfter / 1000).toFixed(1)} s`,
    );
    const state = JSON.parse(await must("podman", ["inspect", "--format", "{{json .State}}", tally.name])) as {
      ExitCode: number;
    };
    expect(state.ExitCode).toBe(0);
    const out = await logs(tally.name);
    expect(out).toContain("Tally stopping (SIGTERM)");
    expect(out).not.toContain("stop grace ran out");

    // Nothing held: every queue item done or back in the queue with no owner, every receipt's job known.
    const dir = mkdtempSync(path.join(os.tmpdir(), "tally-image-data-"));
    made.dirs.push(dir);
    await must("podman", ["cp", `${tally.name}:/data/.`, dir]);
    const db = new Database(path.join(dir, "tally.db"), { readonly: true });
    try {
      const held = db
        .prepare(`SELECT COUNT(*) n FROM "QueueItem" WHERE "state" = 'leased' OR "leaseOwner" IS NOT NULL`)
        .get() as { n: number };
      expect(held.n).toBe(0);
      const orphans = db
        .prepare(`SELECT COUNT(*) n FROM "Receipt" r LEFT JOIN "Job" j ON j."id" = r."jobId" WHERE j."id" IS NULL`)
        .get() as { n: number };
      expect(orphans.n).toBe(0);
      const doubled = db
        .prepare(
          `SELECT COUNT(*) n FROM (SELECT "jobId" FROM "JobEvent" WHERE "type" = 'outcome' GROUP BY "jobId" HAVING COUNT(*) > 1)`,
        )
        .get() as { n: number };
      expect(doubled.n).toBe(0);
    } finally {
      db.close();
    }
  });

  it("ends with npm start's own message when DATABASE_URL is invalid", async () => {
    const bad = "mysql://tally@db/tally";
    const inImage = ours(await sh("podman", ["run", "--rm", "-e", `DATABASE_URL=${bad}`, image]));
    // What `npm start` prints for the same setting, from the sources (its prestart runs scripts/prepare.ts).
    const fromSources = spawnSync("npx", ["tsx", "--conditions=react-server", "scripts/prepare.ts"], {
      env: { ...process.env, DATABASE_URL: bad },
      encoding: "utf8",
    });
    expect(fromSources.status).toBe(1);
    expect(inImage.code).toBe(1);
    expect(inImage.stderr.trim()).toBe(fromSources.stderr.trim());
    expect(inImage.stderr).toContain("DATABASE_URL");
  });

  it("ends with one clear message when /data is not writable", async () => {
    // A read-only /data: neither the SQLite file nor the body store can be made.
    const r = ours(await sh("podman", ["run", "--rm", "--tmpfs", "/data:ro", image]));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\/data/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^Tally cannot start: the folder \/data is not writable by this process \(E[A-Z]+\)\. DATABASE_URL=file:\/data\/tally\.db/,
    );
  });

  it("answers /api/ready 503 body_store_unwritable while /data/bodies cannot be written, and 200 again after", async () => {
    const tally = await start();
    await waitFor("ready", 60_000, async () =>
      (await get(`${tally.url}/api/ready`))?.status === 200 ? true : undefined,
    );
    await must("podman", ["exec", "--user", "0", tally.name, "chmod", "0555", "/data/bodies"]);
    const notReady = await waitFor("503", 30_000, async () => {
      const r = await get(`${tally.url}/api/ready`);
      return r?.status === 503 ? r : undefined;
    });
    expect(notReady.body).toEqual({ ready: false, reason: "body_store_unwritable" });
    // Liveness is not readiness: the process is fine, only the store is not.
    expect((await get(`${tally.url}/api/health`))?.status).toBe(200);
    expect(await logs(tally.name)).toMatch(/not ready.*body_store_unwritable|body_store_unwritable.*not ready/);
    await must("podman", ["exec", "--user", "0", tally.name, "chmod", "0755", "/data/bodies"]);
    await waitFor("200 again", 30_000, async () =>
      (await get(`${tally.url}/api/ready`))?.status === 200 ? true : undefined,
    );
  });
});
