// The typed client (lib/api-client) stays in step with the API: its types are exactly what
// openapi-typescript makes of docs/openapi.json (`npm run api:client`), and of the document the route
// files under app/api describe today, so a route changed without the document and the client fails here
// (test/openapi.test.ts says which of the two is stale). Then, against a demo Tally: the client carries a
// bearer token, turns an error answer into the server's reason, and docs/api.md's example, run as written,
// follows a run to the end.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTallyClient, TallyApiError, unwrap } from "@/lib/api-client";
import { OPENAPI_JSON, openApiFiles } from "@/lib/openapi";
import { API_CLIENT_TYPES, apiClientTypes, OPENAPI_DOCUMENT } from "@/scripts/api-client/generate";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

const load = (file: string) => import(pathToFileURL(path.resolve(file)).href) as Promise<Record<string, unknown>>;
const EXAMPLE = "scripts/api-client/follow-a-run.ts";

describe("the typed client's types", () => {
  it("are what `npm run api:client` makes of docs/openapi.json", async () => {
    expect(OPENAPI_DOCUMENT).toBe(OPENAPI_JSON);
    const expected = await apiClientTypes(readFileSync(OPENAPI_DOCUMENT, "utf8"));
    expect(readFileSync(API_CLIENT_TYPES, "utf8"), `${API_CLIENT_TYPES} is stale: run npm run api:client`).toBe(
      expected,
    );
  });

  it("are what the route files under app/api describe today", async () => {
    const fromRoutes = (await openApiFiles(load))[OPENAPI_JSON];
    expect(
      readFileSync(API_CLIENT_TYPES, "utf8"),
      `a route changed: run npm run docs:openapi, then npm run api:client`,
    ).toBe(await apiClientTypes(fromRoutes));
  }, 120_000);
});

describe("against a demo Tally", () => {
  let tally: TallyServer;
  beforeAll(async () => {
    // demo mode: no platform key, the built-in simulator on a port of its own
    tally = await startTally({ TALLY_SIM_PORT: "0" });
  }, 120_000);
  afterAll(async () => {
    await tally?.stop();
  });

  it("sends the bearer token, and an error answer becomes a TallyApiError with the server's reason", async () => {
    const client = createTallyClient({ baseUrl: `${tally.url}/`, token: TEST_ENV.TALLY_API_TOKEN });
    expect(await unwrap(client.GET("/api/auth/me"))).toMatchObject({ email: null, name: "token:env", role: "admin" });
    const anonymous = createTallyClient({ baseUrl: tally.url });
    const refused = await unwrap(anonymous.GET("/api/auth/me")).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(TallyApiError);
    expect(refused).toMatchObject({ status: 401, code: "unauthorized" });
    const missing = await unwrap(client.GET("/api/runs/{runId}", { params: { path: { runId: "no-such-run" } } })).catch(
      (err: unknown) => err,
    );
    expect(missing).toMatchObject({ status: 404, code: "not_found" });
    expect(String(missing)).toMatch(/^TallyApiError: 404 from http:\/\/127\.0\.0\.1:\d+\/api\/runs\/no-such-run: /);
  });

  it("runs docs/api.md's example as written: it creates a run and follows it until every URL is stored", async () => {
    const code = readFileSync(EXAMPLE, "utf8").replace(/^(\/\/.*\n)+/, "");
    expect(readFileSync("docs/api.md", "utf8"), `docs/api.md must show ${EXAMPLE} as it is`).toContain(
      "```ts\n" + code + "```",
    );
    const child = spawn(path.resolve("node_modules/.bin/tsx"), [EXAMPLE], {
      env: { ...process.env, TALLY_URL: tally.url, TALLY_API_TOKEN: TEST_ENV.TALLY_API_TOKEN },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const exitCode = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(exitCode, out).toBe(0);
    const lines = out.trim().split("\n");
    expect(lines.at(-1), out).toMatch(/^run \S+ completed: 2 of 2 stored, 0 failed$/);
    expect(lines.length, out).toBeGreaterThan(1);
  }, 120_000);
});
