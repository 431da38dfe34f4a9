import "server-only";
import { z } from "zod";
import { mergeConfig } from "./config";
import { servedPerOptionSet } from "./page-kinds";
import type { SimCore } from "./core";
import type { Reply } from "./http";
import { route, type Route } from "./router";
import { seedJobs } from "./seed";

const faultSchema = z.strictObject({
  kind: z.enum(["rate_limit", "server_error", "slow"]),
  count: z.number().int().min(1).max(1000).default(1),
  status: z.number().int().min(500).max(599).optional(),
  retryAfter: z.enum(["seconds", "http-date", "none"]).optional(),
});
export type FaultRequest = z.input<typeof faultSchema>;

const badRequest = (reason: string): Reply => ({ status: 400, body: { code: "INVALID_REQUEST", message: reason } });

/** Queues the next N API calls to fail a given way (deterministic, unlike the rates). */
export function injectFaults(
  core: SimCore,
  input: unknown,
): { ok: true; queued: number } | { ok: false; reason: string } {
  const parsed = faultSchema.safeParse(input);
  if (!parsed.success)
    return {
      ok: false,
      reason: parsed.error.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; "),
    };
  const { kind, count, status, retryAfter } = parsed.data;
  for (let i = 0; i < count; i++) core.forcedFaults.push({ kind, status, retryAfter });
  return { ok: true, queued: core.forcedFaults.length };
}

/** /_sim/*: only in test and demo modes (the server answers 404 in strict mode). */
export function controlRoutes(core: SimCore): Route[] {
  return [
    route("GET", "/_sim/config", () => ({ status: 200, body: core.config() })),
    route("POST", "/_sim/config", (ctx) => {
      const merged = mergeConfig(core.config(), ctx.body ?? {});
      if (!merged.ok) return badRequest(merged.reason);
      return { status: 200, body: core.setConfig(ctx.body ?? {}) };
    }),
    route("GET", "/_sim/state", () => ({ status: 200, body: core.state() })),
    // Arrival times of the API calls, so a test or the chaos run can check the callers' rate.
    route("GET", "/_sim/calls", () => ({ status: 200, body: { calls: core.apiCalls } })),
    // Which version of a URL's content the simulator served last (the knob contentChangeRate), what that
    // serving was (`last`: good, block, empty_shell, soft_404, truncated; why; the options asked with) and
    // what each named option set would get (`wouldServe`, the content knobs: page-kinds.ts).
    route("GET", "/_sim/content", (ctx) => {
      const url = typeof ctx.query.url === "string" ? ctx.query.url : undefined;
      if (!url) return { status: 400, body: { error: "url is required" } };
      const wouldServe = servedPerOptionSet(core.config(), url);
      return { status: 200, body: { url, ...core.content.get(url), wouldServe } };
    }),
    route("POST", "/_sim/reset", () => {
      core.reset();
      return { status: 200, body: { ok: true, config: core.config() } };
    }),
    route("POST", "/_sim/faults", (ctx) => {
      const out = injectFaults(core, ctx.body ?? {});
      return out.ok ? { status: 200, body: { queued: out.queued } } : badRequest(out.reason);
    }),
    // Test mode only (not demo): a demo's history should come from its own traffic.
    ...(core.mode === "test"
      ? [
          route("POST", "/_sim/seed", (ctx) => {
            const out = seedJobs(core, ctx.body ?? {});
            return out.ok ? { status: 200, body: { seeded: out.ids.length, ids: out.ids } } : badRequest(out.reason);
          }),
        ]
      : []),
  ];
}
