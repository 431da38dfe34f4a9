// compose.yaml under podman-compose (issue 48): PostgreSQL (from Debian's package here), the simulator
// as the platform, two servers with the worker off and one worker container. A stream of 1,000 signed
// webhook deliveries goes to the two servers while one of their containers is stopped and started;
// a delivery that is not acknowledged is sent again (to the other server), as the platform retries.
// Meanwhile the worker container is killed with SIGKILL and started again. In the end every
// acknowledged delivery has one receipt and its job is stored once: none lost, none twice.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { deliver, envelope } from "../webhook-client";
import { freePort, get, must, randomName, sh, sleep, waitFor } from "./harness";

const images = inject("containers");
const skipped = "skipped" in images ? images.skipped : null;
const ROOT = path.resolve(import.meta.dirname, "../..");
const COMPOSE = path.join(ROOT, "compose.yaml");
const DELIVERIES = 1000;
const SECRET = "whsec_compose_test_secret";

describe.skipIf(skipped)("compose.yaml: two servers, a worker, PostgreSQL", () => {
  const project = randomName("tally-test-compose").replace(/-/g, "_");
  let env: Record<string, string> = {};
  const ports = { server1: 0, server2: 0, sim: 0 };
  const compose = (...args: string[]) =>
    sh("podman-compose", ["-p", project, "-f", COMPOSE, ...args], { env, timeoutMs: 300_000 });
  const container = async (service: string) =>
    (
      await must("podman", [
        "ps",
        "-a",
        "--filter",
        `label=io.podman.compose.project=${project}`,
        "--filter",
        `label=com.docker.compose.service=${service}`,
        "--format",
        "{{.Names}}",
      ])
    ).trim();
  const psql = async (sql: string) =>
    (
      await must("podman", [
        "exec",
        await container("postgres"),
        "psql",
        "-U",
        "tally",
        "-d",
        "tally",
        "-At",
        "-c",
        sql,
      ])
    ).trim();
  const count = async (sql: string) => Number(await psql(sql));

  beforeAll(async () => {
    if (!("tally" in images)) return;
    ports.server1 = await freePort();
    ports.server2 = await freePort();
    ports.sim = await freePort();
    env = {
      TALLY_IMAGE: images.tally,
      TALLY_POSTGRES_IMAGE: images.postgres,
      TALLY_SIM_MODE: "test",
      TALLY_SERVER_1_PORT: String(ports.server1),
      TALLY_SERVER_2_PORT: String(ports.server2),
      TALLY_SIM_HOST_PORT: String(ports.sim),
      // Items a killed worker held come back after this; the budget lets the worker fetch 1,000 jobs briskly.
      TALLY_LEASE_SECONDS: "10",
      TALLY_API_RPS: "100",
      // The stream is the test's; no demo jobs beside it.
      TALLY_DEMO_TRAFFIC: "off",
    };
    const up = await compose("up", "-d");
    if (up.code !== 0) throw new Error(`podman-compose up failed: ${up.stderr || up.stdout}`);
    for (const port of [ports.server1, ports.server2])
      await waitFor(`server on ${port} ready`, 180_000, async () =>
        (await get(`http://127.0.0.1:${port}/api/ready`))?.status === 200 ? true : undefined,
      );
    // podman-compose 1.0.3 orders the start by depends_on but does not wait for health: a worker started
    // before the migrations ends, and its restart policy brings it back; make sure it runs now.
    const worker = await container("worker");
    const running = (await must("podman", ["inspect", "--format", "{{.State.Running}}", worker])).trim();
    if (running !== "true") {
      console.log(
        `compose: worker was not running at first (${(await sh("podman", ["logs", "--tail", "3", worker])).stderr.trim()})`,
      );
      await must("podman", ["start", worker]);
    }
  });

  afterAll(async () => {
    if (!("tally" in images)) return;
    // The volumes the project's containers mount (anonymous ones included), to remove after them.
    const ids = (await sh("podman", ["ps", "-aq", "--filter", `label=io.podman.compose.project=${project}`])).stdout;
    const mounted = ids.trim()
      ? (await sh("podman", ["inspect", "--format", "{{range .Mounts}}{{.Name}} {{end}}", ...ids.trim().split("\n")]))
          .stdout
      : "";
    await compose("down", "-v", "-t", "2");
    // podman-compose 1.0.3 leaves its network and volumes behind.
    await sh("podman", ["network", "rm", "-f", `${project}_default`]);
    const volumes = (
      await sh("podman", ["volume", "ls", "-q", "--filter", `label=io.podman.compose.project=${project}`])
    ).stdout;
    for (const v of new Set([...volumes.split("\n"), ...mounted.split(/\s+/)].filter(Boolean)))
      await sh("podman", ["volume", "rm", "-f", v]);
  });

  it("stores every acknowledged delivery once while a server container is stopped and started and the worker is SIGKILLed", async () => {
    // The platform's side: 1,000 settled jobs on the simulator (what the worker fetches), and the
    // subscription their webhooks are signed for (what registration would have stored).
    const seeded = (await (
      await fetch(`http://127.0.0.1:${ports.sim}/_sim/seed`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ count: DELIVERIES, ageSeconds: 1 }),
      })
    ).json()) as { ids: string[] };
    expect(seeded.ids).toHaveLength(DELIVERIES);
    await psql(
      `INSERT INTO "Subscription" ("id", "eventType", "url", "secret", "updatedAt") VALUES ('sub-compose', 'extract_completed', 'http://server-1:3000/webhooks/geonode/sub-compose', '${SECRET}', now())`,
    );

    const servers = [`http://127.0.0.1:${ports.server1}`, `http://127.0.0.1:${ports.server2}`];
    const acked = new Map<string, number>();
    let refused = 0;
    let sent = 0;
    const server2 = await container("server-2");
    const worker = await container("worker");
    const events: string[] = [];
    let server2Stop: Promise<unknown> | undefined;

    async function send(jobId: string, i: number) {
      for (let attempt = 0; attempt < 40; attempt++) {
        const url = `${servers[(i + attempt) % 2]}/webhooks/geonode/sub-compose`;
        const r = await deliver(url, envelope(jobId), { secret: SECRET }).catch(() => undefined);
        if (r?.status === 200 && (r.json.status === "accepted" || r.json.status === "duplicate")) {
          acked.set(jobId, (acked.get(jobId) ?? 0) + 1);
          return;
        }
        refused++;
        await sleep(100);
      }
      throw new Error(`${jobId}: never acknowledged`);
    }
    // 16 senders; server-2 stopped at the 300th delivery and started at the 600th. Beside them, the
    // worker is killed once a hundred jobs are stored (during the stream or after it).
    const queue = seeded.ids.map((id, i) => [id, i] as const);
    const storedCount = () => count(`SELECT COUNT(*) FROM "Job" WHERE "outcome" = 'stored'`);
    const workerKill = (async () => {
      await waitFor("100 stored", 240_000, async () => ((await storedCount()) >= 100 ? true : undefined), 500);
      events.push(`worker SIGKILL after ${sent} sent`);
      await must("podman", ["kill", "--signal", "KILL", worker]);
    })();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          sent++;
          if (sent === 300) {
            events.push("server-2 stop");
            server2Stop = must("podman", ["stop", "--time", "10", server2]);
          }
          if (sent === 600) {
            await server2Stop;
            events.push("server-2 start");
            await must("podman", ["start", server2]);
          }
          await send(next[0], next[1]);
        }
      }),
    );
    await server2Stop;
    await workerKill;
    // podman kill is not a stop: the container may come back by its restart policy; start it if not.
    await sleep(1000);
    await sh("podman", ["start", worker]);
    events.push("worker started");
    const server2State = JSON.parse(await must("podman", ["inspect", "--format", "{{json .State}}", server2])) as {
      Running: boolean;
    };
    expect(server2State.Running).toBe(true);

    await waitFor(
      "every job stored",
      240_000,
      async () =>
        (await count(`SELECT COUNT(*) FROM "Job" WHERE "outcome" = 'stored'`)) >= DELIVERIES ? true : undefined,
      2000,
    );

    console.log(
      `compose: ${DELIVERIES} deliveries acknowledged, ${refused} sends refused or cut and sent again; ${events.join(", ")}`,
    );
    // Every delivery acknowledged (after retries); each of the jobs has one receipt and one queue item
    // and was stored once (one outcome event); nothing is left held.
    expect(acked.size).toBe(DELIVERIES);
    const perJob = async (sql: string) =>
      new Map(
        (await psql(sql))
          .split("\n")
          .filter(Boolean)
          .map((l) => l.split("|") as [string, string]),
      );
    const receipts = await perJob(`SELECT "jobId", COUNT(*) FROM "Receipt" GROUP BY "jobId"`);
    const items = await perJob(
      `SELECT "jobId", COUNT(*) FROM "QueueItem" WHERE "kind" = 'process_job' GROUP BY "jobId"`,
    );
    const outcomes = await perJob(`SELECT "jobId", COUNT(*) FROM "JobEvent" WHERE "type" = 'outcome' GROUP BY "jobId"`);
    const stored = await perJob(`SELECT "id", "outcome" FROM "Job"`);
    for (const id of seeded.ids) {
      expect(receipts.get(id), `receipts of ${id}`).toBe("1");
      expect(items.get(id), `queue items of ${id}`).toBe("1");
      expect(outcomes.get(id), `outcomes of ${id}`).toBe("1");
      expect(stored.get(id), `outcome of ${id}`).toBe("stored");
    }
    expect([...outcomes.values()].every((n) => n === "1")).toBe(true);
    expect(await count(`SELECT COUNT(*) FROM "QueueItem" WHERE "state" = 'leased'`)).toBe(0);
    // The stopped server drained and exited 0 (the logs of its first run say so).
    const logs = await sh("podman", ["logs", server2]);
    expect(logs.stdout + logs.stderr).toContain("Tally stopping (SIGTERM)");
  });

  it("uses only ports published on 127.0.0.1", () => {
    const text = readFileSync(COMPOSE, "utf8");
    const published = [...text.matchAll(/^\s+- "([^"]+:\d+)"$/gm)].map((m) => m[1]);
    expect(published.length).toBeGreaterThan(0);
    for (const p of published) expect(p).toMatch(/^127\.0\.0\.1:/);
  });
});
