import "server-only";
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { SimConfig } from "./config";
import { createCore, type ApiCall, type CoreOptions, type SimState } from "./core";
import { apiFault, lostResponse } from "./faults";
import { flatError, parseJsonBody, queryObject, readBody, writeReply, type Reply } from "./http";
import { batchCrawlRoutes } from "./routes-batch-crawl";
import { controlRoutes, injectFaults, type FaultRequest } from "./routes-control";
import { extractRoutes } from "./routes-extract";
import { webhookRoutes } from "./routes-webhooks";
import { match, route, type Ctx, type Route } from "./router";
import { seedJobs, type SeedRequest } from "./seed";

export type SimulatorOptions = CoreOptions;

export type RunningSimulator = { url: string; close(): Promise<void> };

export type Simulator = {
  listen(port: number, host?: string): Promise<RunningSimulator>;
  getConfig(): SimConfig;
  /** Validated like POST /_sim/config; throws on an invalid patch. */
  setConfig(patch: Partial<SimConfig>): SimConfig;
  state(): SimState;
  reset(): void;
  /** The /v1/* calls received (arrival time, status), oldest first; also GET /_sim/calls. */
  apiCalls(): ApiCall[];
  /** Same as POST /_sim/faults: the next `count` API calls fail the given way. */
  injectFaults(fault: FaultRequest): void;
  /** Same as POST /_sim/seed (test mode only): `count` jobs settled long ago; returns their ids, oldest first. */
  seedJobs(request: SeedRequest): string[];
};

/** A local stand-in for the Geonode Scraper API. Creating it starts nothing; listen() does. */
export function createSimulator(opts: SimulatorOptions): Simulator {
  const core = createCore(opts);
  const api = [
    route("GET", "/health", () => ({ status: 200, body: { status: "ok" } })),
    ...extractRoutes(core),
    ...batchCrawlRoutes(core),
    ...webhookRoutes(core),
  ];
  const control = controlRoutes(core);
  const controlEnabled = opts.mode !== "strict";

  async function handle(req: IncomingMessage): Promise<Reply> {
    const arrivedAt = Date.now();
    const correlationId = randomUUID();
    const url = new URL(req.url ?? "/", "http://simulator.local");
    const method = (req.method ?? "GET").toUpperCase();
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const isControl = path.startsWith("/_sim/");
    const isApi = path.startsWith("/v1/");

    if (isApi) {
      // Like the platform: any non-empty key, or exactly the configured one.
      const key = req.headers["x-api-key"];
      const given = Array.isArray(key) ? key[0] : key;
      if (!given || (core.apiKey !== undefined && given !== core.apiKey)) {
        return flatError(401, "UNAUTHORIZED", "Missing or invalid API key", correlationId);
      }
    }
    const found = match(isControl ? (controlEnabled ? control : []) : api, method, path);
    if (!found.route) {
      return found.pathMatched
        ? { status: 405, body: { detail: "Method Not Allowed" } }
        : flatError(404, "NOT_FOUND", "Not found", correlationId);
    }

    // An empty body stays undefined; routes that need one answer 422 "Field required" via their schema.
    let body: unknown = undefined;
    if (method === "POST" || method === "PATCH") {
      const raw = await readBody(req);
      if (raw === null) return flatError(413, "PAYLOAD_TOO_LARGE", "Request body too large", correlationId);
      if (raw.length > 0) {
        const parsed = parseJsonBody(raw);
        if (!parsed.ok)
          return isControl
            ? { status: 400, body: { code: "INVALID_REQUEST", message: "body is not JSON" } }
            : parsed.reply;
        body = parsed.value;
      }
    }

    if (!isApi)
      return found.route.handler({
        method,
        path,
        params: found.params,
        query: queryObject(url.searchParams),
        body,
        correlationId,
      });
    const reply = await answerApi(found.route, {
      method,
      path,
      params: found.params,
      query: queryObject(url.searchParams),
      body,
      correlationId,
    });
    core.recordApiCall({ at: arrivedAt, status: reply.status });
    return reply;
  }

  async function answerApi(r: Route, ctx: Ctx): Promise<Reply> {
    const fault = await apiFault(core, ctx.correlationId);
    if (fault) return fault;
    return lostResponse(core, ctx.method, await r.handler(ctx), ctx.correlationId);
  }

  function onRequest(req: IncomingMessage, res: ServerResponse): void {
    handle(req)
      .then((reply) => writeReply(res, reply))
      .catch((err: unknown) => {
        core.log(`simulator error on ${req.method} ${req.url}: ${err instanceof Error ? err.stack : String(err)}`);
        if (!res.headersSent) writeReply(res, flatError(500, "INTERNAL_ERROR", "Simulator bug", randomUUID(), true));
        else res.destroy();
      });
  }

  let server: Server | null = null;

  return {
    listen(port: number, host = "127.0.0.1") {
      if (server) return Promise.reject(new Error("simulator already listening"));
      const srv = createServer(onRequest);
      server = srv;
      return new Promise<RunningSimulator>((resolve, reject) => {
        srv.once("error", reject);
        srv.listen(port, host, () => {
          const address = srv.address();
          const bound = address !== null && typeof address === "object" ? address.port : port;
          const shownHost = host.includes(":") ? `[${host}]` : host;
          const url = `http://${shownHost}:${bound}`;
          resolve({
            url,
            close: () =>
              new Promise<void>((done) => {
                core.close();
                srv.closeAllConnections();
                srv.close(() => done());
                server = null;
              }),
          });
        });
      });
    },
    getConfig: () => core.config(),
    setConfig: (patch) => core.setConfig(patch),
    state: () => core.state(),
    reset: () => core.reset(),
    apiCalls: () => [...core.apiCalls],
    injectFaults(fault) {
      const out = injectFaults(core, fault);
      if (!out.ok) throw new Error(`invalid fault: ${out.reason}`);
    },
    seedJobs(request) {
      const out = seedJobs(core, request);
      if (!out.ok) throw new Error(`cannot seed: ${out.reason}`);
      return out.ids;
    },
  };
}
