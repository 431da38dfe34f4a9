// Shared pieces of the safety-net tests that run Tally for real: a proxy in front of the simulator
// that can hold back the answer to rotate-secret (the gap in which the platform already signs with
// the new secret and Tally still has the old one), the JSON API with the bearer token, and waits.
import { createServer } from "node:http";
import { setConfigForTests } from "@/lib/config";
import { db } from "@/lib/db";
import { resetPlatformClients } from "@/lib/platform/shared-client";
import { workerRegistry } from "@/lib/worker/registry";
import { createWorker } from "@/lib/worker/worker";
import type { startSim } from "@/lib/simulator/test-harness.test-util";
import { API_KEY, waitFor } from "@/lib/simulator/test-harness.test-util";
import { createTestDb } from "./db";
import { startTally, TEST_ENV } from "./tally-server";

type Sim = Awaited<ReturnType<typeof startSim>>;

export async function startProxy(target: string) {
  // rotated: rotate-secret calls the platform carried out; loseRotateAnswers: how many of the next
  // ones answer 502 although the platform rotated (a gateway losing the answer).
  // rotateGate: while set, answers to rotate-secret wait for it (the platform has rotated already).
  const state = {
    rotateDelayMs: 0,
    rotated: 0,
    loseRotateAnswers: 0,
    rotateGate: null as Promise<void> | null,
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (const name of ["x-api-key", "content-type", "accept", "user-agent"]) {
        const v = req.headers[name];
        if (typeof v === "string") headers[name] = v;
      }
      const body = Buffer.concat(chunks);
      void fetch(target + (req.url ?? "/"), { method: req.method, headers, body: body.length > 0 ? body : undefined })
        .then(async (up) => {
          const text = Buffer.from(await up.arrayBuffer());
          const out: Record<string, string> = { "content-type": up.headers.get("content-type") ?? "application/json" };
          const retryAfter = up.headers.get("retry-after");
          if (retryAfter) out["retry-after"] = retryAfter;
          // The platform has already rotated; only its answer (with the new secret) is late, or lost.
          const rotation = req.url?.includes("/rotate-secret") === true && up.ok;
          if (rotation) state.rotated++;
          if (rotation && state.loseRotateAnswers > 0) {
            state.loseRotateAnswers--;
            res.writeHead(502, { "content-type": "application/json" }).end('{"code":"BAD_GATEWAY","message":"lost"}');
            return;
          }
          const answer = () =>
            setTimeout(() => res.writeHead(up.status, out).end(text), rotation ? state.rotateDelayMs : 0);
          if (rotation && state.rotateGate) void state.rotateGate.then(answer);
          else answer();
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  const port = address !== null && typeof address === "object" ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/**
 * The simulator behind a proxy, a test database, and a real Tally on it reaching the platform through
 * the proxy: a budget that is never the limit, a 1 s settle before a rotation's replay, and no
 * reconciliation or polling unless `env` says otherwise. This process's config points at the same
 * database and Tally, so a test reads and writes what the server does.
 */
export async function startTallyBehindProxy(sim: Sim, env: Record<string, string> = {}) {
  const proxy = await startProxy(sim.url);
  resetPlatformClients();
  const t = await createTestDb({
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_API_RPS: "1000",
  });
  const tally = await startTally(
    {
      SCRAPER_API_BASE_URL: proxy.url,
      GEONODE_SCRAPER_API_KEY: API_KEY,
      TALLY_API_RPS: "1000",
      TALLY_ROTATION_SETTLE_SECONDS: "1",
      TALLY_RECONCILE_INTERVAL_MINUTES: "0",
      TALLY_POLL_NO_WEBHOOK_SECONDS: "86400",
      ...env,
    },
    t.url,
  );
  setConfigForTests({ ...t.config, TALLY_PUBLIC_URL: tally.url, publicUrl: tally.url });
  return { proxy, t, tally };
}

export type ApiAnswer = { status: number; json: Record<string, unknown>; text: string };

export function apiClient(baseUrl: () => string) {
  return async (path: string, init: { method?: string; body?: unknown; auth?: boolean } = {}): Promise<ApiAnswer> => {
    const res = await fetch(baseUrl() + path, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: {
        "content-type": "application/json",
        ...(init.auth === false ? {} : { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text);
    } catch {
      // left empty; tests assert on status
    }
    return { status: res.status, json, text };
  };
}

/** Every job settled on the platform, its webhook sent or dropped, and no attempt in flight. */
export function quiet(sim: Sim, ids: string[], timeoutMs = 15_000) {
  return waitFor(
    "jobs settled and delivered",
    () => {
      const st = sim.sim.state();
      const done = ids.every((id) => {
        const j = st.perJob[id];
        return j !== undefined && ["completed", "failed", "cancelled"].includes(j.status) && j.sent + j.dropped > 0;
      });
      return done && st.deliveries.byStatus.pending === 0;
    },
    timeoutMs,
  );
}

/** The real worker, in this process, until nothing is due. */
export const drain = () =>
  createWorker({ registry: workerRegistry, concurrency: 4, leaseMs: 10_000, owner: "test" }).drain();

export const outcomeOf = async (ids: string[]) =>
  new Map(
    (await db().job.findMany({ where: { id: { in: ids } }, select: { id: true, outcome: true } })).map((j) => [
      j.id,
      j.outcome,
    ]),
  );

/** Exactly one outcome event per job: nothing was settled twice. */
export async function outcomeEventsPerJob(ids: string[]): Promise<number[]> {
  const rows = await db().jobEvent.groupBy({
    by: ["jobId"],
    where: { jobId: { in: ids }, type: "outcome" },
    _count: { _all: true },
  });
  const byId = new Map(rows.map((r) => [r.jobId, r._count._all]));
  return ids.map((id) => byId.get(id) ?? 0);
}

export async function waitRun(
  api: ReturnType<typeof apiClient>,
  runId: string,
  timeoutMs = 15_000,
): Promise<Record<string, unknown>> {
  let last: Record<string, unknown> = {};
  await waitFor(
    `run ${runId} to end`,
    async () => {
      last = (await api(`/api/operations/${runId}`)).json;
      if (last.state === "running") await new Promise((r) => setTimeout(r, 100));
      return last.state !== "running";
    },
    timeoutMs,
  );
  return last;
}
