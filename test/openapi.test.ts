// The API description (docs/openapi.json, served by GET /api/openapi.json, and docs/api-reference.md):
// it must name every route file's exported methods, say what the routes' own zod contracts say (a
// stale committed file fails here: run `npm run docs:openapi`), be a well-formed OpenAPI 3.1 document,
// and the answers a running Tally gives must pass the answer schemas it documents.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ROLES } from "@/lib/auth/roles";
import { documented, routeDocOf, type RouteDoc } from "@/lib/http/route-doc";
import {
  API_REFERENCE_MD,
  apiPathOf,
  buildOpenApiDocument,
  collectApiRoutes,
  OPENAPI_JSON,
  openApiFiles,
  type ApiRoute,
} from "@/lib/openapi";
import { routesOf } from "@/lib/openapi/document";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

const load = (file: string) => import(pathToFileURL(path.resolve(file)).href) as Promise<Record<string, unknown>>;

type Doc = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: Record<string, Record<string, unknown>>;
};

let routes: ApiRoute[];
let generated: Record<string, string>;
let doc: Doc;
beforeAll(async () => {
  routes = await collectApiRoutes(load);
  generated = await openApiFiles(load);
  doc = JSON.parse(generated[OPENAPI_JSON]);
}, 120_000);

/** Every route file under app/api and the methods it exports, read from the source text alone. */
function scanRouteFiles(dir = "app/api"): { file: string; methods: string[] }[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = `${dir}/${name}`;
      if (statSync(p).isDirectory()) return scanRouteFiles(p);
      if (name !== "route.ts") return [];
      const src = readFileSync(p, "utf8");
      const methods = [...src.matchAll(/export (?:const|(?:async )?function) (GET|POST|PUT|PATCH|DELETE)\b/g)];
      return [{ file: p, methods: methods.map((m) => m[1]) }];
    });
}

const operations = (d: Doc) =>
  Object.entries(d.paths).flatMap(([p, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${p}`, op })),
  );

describe("the API description", () => {
  it("names every method every route file under app/api exports, and nothing else", () => {
    const scanned = scanRouteFiles().flatMap(({ file, methods }) => methods.map((m) => `${m} ${apiPathOf(file)}`));
    expect(scanned.length).toBeGreaterThan(50);
    expect(scanned).toContain("GET /api/jobs/{jobId}/results");
    expect(scanned).toContain("GET /api/openapi.json");
    expect(
      operations(doc)
        .map((o) => o.key)
        .sort(),
    ).toEqual([...scanned].sort());
    const committed: Doc = JSON.parse(readFileSync(OPENAPI_JSON, "utf8"));
    expect(
      operations(committed)
        .map((o) => o.key)
        .sort(),
      "docs/openapi.json misses a route or names one that is gone: run npm run docs:openapi",
    ).toEqual([...scanned].sort());
  });

  it("is committed as generated: docs/openapi.json and docs/api-reference.md match the contracts (npm run docs:openapi)", () => {
    const committed = JSON.parse(readFileSync(OPENAPI_JSON, "utf8"));
    // the object first, so a drift shows as a readable diff of the schema that moved
    expect(committed, "docs/openapi.json is stale: run npm run docs:openapi").toEqual(doc);
    expect(readFileSync(OPENAPI_JSON, "utf8")).toBe(generated[OPENAPI_JSON]);
    expect(readFileSync(API_REFERENCE_MD, "utf8"), "docs/api-reference.md is stale: run npm run docs:openapi").toBe(
      generated[API_REFERENCE_MD],
    );
  });

  it("is a well-formed OpenAPI 3.1 document whose every $ref resolves", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.title).toBe("Tally API");
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Object.keys(doc.components.schemas)).toContain("Error");
    const schemes = Object.keys(doc.components.securitySchemes);
    const ids = new Set<string>();
    for (const { key, op } of operations(doc)) {
      const [, p] = key.split(" ");
      expect(p, key).toMatch(/^\/api\//);
      expect(typeof op.summary === "string" && op.summary.length > 0, `${key} has no summary`).toBe(true);
      expect(ids.has(op.operationId as string), `${key}: operationId repeats`).toBe(false);
      ids.add(op.operationId as string);
      const responses = op.responses as Record<string, unknown>;
      expect(
        Object.keys(responses).some((s) => /^2\d\d$/.test(s)),
        `${key} has no success answer`,
      ).toBe(true);
      for (const s of Object.keys(responses)) expect(s, key).toMatch(/^[1-5]\d\d$/);
      for (const requirement of op.security as Record<string, string[]>[]) {
        for (const [scheme, scopes] of Object.entries(requirement)) {
          expect(schemes, key).toContain(scheme);
          for (const role of scopes) expect(ROLES, key).toContain(role);
        }
      }
      const params = (op.parameters ?? []) as { name: string; in: string; required: boolean }[];
      const inPath = [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      expect(
        params
          .filter((x) => x.in === "path")
          .map((x) => x.name)
          .sort(),
        `${key}: path parameters`,
      ).toEqual(inPath);
      for (const x of params) expect(["query", "path"], key).toContain(x.in);
      if (op["x-tally-role"] !== undefined) expect(ROLES, key).toContain(op["x-tally-role"]);
    }
    // every $ref points at something that exists in the document
    const refs: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === "object") {
        for (const [k, x] of Object.entries(v)) {
          if (k === "$ref") refs.push(x as string);
          else walk(x);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of new Set(refs)) {
      expect(ref, ref).toMatch(/^#\//);
      const target = ref
        .slice(2)
        .split("/")
        .reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], doc);
      expect(target, `${ref} does not resolve`).toBeDefined();
    }
  });

  it("states each route's access as its wrapper enforces it", () => {
    const op = (key: string) => operations(doc).find((o) => o.key === key)?.op ?? {};
    expect(op("POST /api/destinations")["x-tally-role"]).toBe("admin");
    expect(op("POST /api/jobs")["x-tally-role"]).toBe("operator");
    expect(op("GET /api/jobs")["x-tally-role"]).toBe("viewer");
    expect(op("GET /api/openapi.json")["x-tally-role"]).toBe("viewer");
    expect(op("GET /api/health").security).toEqual([]);
    expect(op("POST /api/auth/login").security).toEqual([]);
    expect(op("POST /api/cron/work").security).toEqual([{ cronSecret: [] }]);
    expect(op("GET /api/metrics").security).toEqual([{ metricsToken: [] }]);
    expect(op("GET /api/ready").security).toEqual([]);
    // every operator route names a role; only health, readiness and the sign-in are open
    for (const r of routes) {
      if (r.doc.access.kind === "public") expect(["/api/health", "/api/ready", "/api/auth/login"]).toContain(r.path);
      if (r.path.startsWith("/api/cron/")) expect(r.doc.access.kind).toBe("cron");
    }
    const statuses = (key: string) => Object.keys(op(key).responses as object);
    expect(statuses("POST /api/destinations")).toEqual(["201", "400", "401", "403", "409", "500"]);
    expect(statuses("GET /api/health")).toEqual(["200", "503"]);
    expect(statuses("GET /api/ready")).toEqual(["200", "503"]);
    const exports = op("GET /api/results/export").responses as Record<string, { content: object }>;
    expect(Object.keys(exports["200"].content).sort()).toEqual(["application/x-ndjson", "text/csv"]);
    expect(
      Object.keys((op("GET /api/jobs/export").responses as Record<string, { content: object }>)["200"].content),
    ).toEqual(["text/csv"]);
  });
});

describe("the generator", () => {
  const route = (doc: RouteDoc, method: "GET" | "POST" = "POST"): ApiRoute => ({
    method,
    path: "/api/things/{id}",
    file: "app/api/things/[id]/route.ts",
    doc,
  });
  const base: RouteDoc = {
    access: { kind: "operator", role: "admin" },
    summary: "A thing",
    params: z.object({ id: z.string().max(10) }),
    body: z.strictObject({ n: z.number().int().max(5), note: z.string().optional() }),
    query: z.object({ limit: z.coerce.number().int().min(1).max(50).default(20) }),
    answer: z.object({ ok: z.boolean() }),
  };

  it("writes the body, query, path and answer schemas the route parses with, so a change to one changes the document", () => {
    const built = buildOpenApiDocument([route(base)], { version: "1.0.0" }) as unknown as Doc;
    const op = built.paths["/api/things/{id}"].post as Record<string, unknown>;
    expect(op.requestBody).toEqual({
      required: true,
      content: {
        "application/json": {
          schema: {
            type: "object",
            properties: { n: { type: "integer", maximum: 5 }, note: { type: "string" } },
            required: ["n"],
            additionalProperties: false,
          },
        },
      },
    });
    expect(op.parameters).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "string", maxLength: 10 } },
      {
        name: "limit",
        in: "query",
        required: false,
        schema: { type: "integer", minimum: 1, maximum: 50, default: 20 },
      },
    ]);
    expect(op.security).toEqual([{ session: ["admin"] }, { apiToken: ["admin"] }]);
    expect(Object.keys(op.responses as object)).toEqual(["200", "400", "401", "403", "500"]);
    const changed = buildOpenApiDocument([route({ ...base, body: z.strictObject({ n: z.number().int().max(6) }) })], {
      version: "1.0.0",
    });
    expect(changed).not.toEqual(built);
  });

  it("refuses a route method without a description, and a path parameter without a schema", () => {
    const bare = async () => new Response("hi");
    expect(() => routesOf("app/api/x/route.ts", { GET: bare }, routeDocOf)).toThrow(/GET carries no description/);
    const described = documented({ access: { kind: "public" }, summary: "x" }, bare);
    expect(routesOf("app/api/x/route.ts", { GET: described }, routeDocOf)).toHaveLength(1);
    expect(() =>
      buildOpenApiDocument([route({ access: { kind: "operator", role: "viewer" }, summary: "x" }, "GET")], {
        version: "1.0.0",
      }),
    ).toThrow(/path parameter id has no schema/);
  });

  it("maps route files to URL paths", () => {
    expect(apiPathOf("app/api/jobs/[jobId]/results/route.ts")).toBe("/api/jobs/{jobId}/results");
    expect(apiPathOf("app/api/openapi.json/route.ts")).toBe("/api/openapi.json");
    expect(apiPathOf("app/(dashboard)/api/x/route.ts")).toBe("/api/x");
  });
});

describe("served by a running Tally", () => {
  let tally: TallyServer;
  beforeAll(async () => {
    tally = await startTally();
  }, 120_000);
  afterAll(async () => {
    await tally?.stop();
  });
  const bearer = { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` };

  it("GET /api/openapi.json needs a login and answers the committed document", async () => {
    const open = await fetch(`${tally.url}/api/openapi.json`);
    expect(open.status).toBe(401);
    expect(await open.json()).toMatchObject({ error: "unauthorized" });
    const res = await fetch(`${tally.url}/api/openapi.json`, { headers: bearer });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(JSON.parse(readFileSync(OPENAPI_JSON, "utf8")));
  });

  it("a POST's answer passes its documented schema, with the documented status", async () => {
    // also leaves rows behind, so the lists below are checked with items in them
    const calls: [string, unknown][] = [
      ["/api/destinations", { url: "https://example.com/hook/openapi", events: ["job.stored"] }],
      ["/api/operations/reconcile", {}],
    ];
    for (const [url, body] of calls) {
      const r = routes.find((x) => x.method === "POST" && x.path === url)!;
      const res = await fetch(tally.url + url, {
        method: "POST",
        headers: { ...bearer, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const json = await res.json();
      expect(res.status, `${url}: ${JSON.stringify(json)}`).toBe(r.doc.status ?? 200);
      const parsed = r.doc.answer!.safeParse(json);
      expect(parsed.success, `${url}: ${parsed.error?.message}`).toBe(true);
    }
  });

  it("every GET with a documented answer and no path parameter answers what its schema describes", async () => {
    const checked = routes.filter(
      (r) => r.method === "GET" && r.doc.answer && !r.path.includes("{") && r.doc.access.kind !== "metrics",
    );
    expect(checked.length).toBeGreaterThan(10);
    let withItems = 0;
    for (const r of checked) {
      const res = await fetch(tally.url + r.path, { headers: bearer });
      const body = await res.json();
      if (Array.isArray(body.items) && body.items.length > 0) withItems++;
      expect(res.status, `${r.path}: ${JSON.stringify(body)}`).toBe(r.doc.status ?? 200);
      const parsed = r.doc.answer!.safeParse(body);
      expect(parsed.success, `${r.path}: ${parsed.error?.message}`).toBe(true);
    }
    // destinations, subscriptions, operations, audit…: not only empty lists
    expect(withItems).toBeGreaterThanOrEqual(4);
  });

  it("an error answer has the documented Error shape and a documented status", async () => {
    const errorSchema = z.object({ error: z.string(), message: z.string() });
    const cases: [string, string, number][] = [
      ["GET", "/api/audit?limit=abc", 400],
      ["GET", "/api/operations/no-such-run", 404],
      ["POST", "/api/destinations", 400],
    ];
    for (const [method, url, status] of cases) {
      const res = await fetch(tally.url + url, {
        method,
        headers: { ...bearer, "content-type": "application/json" },
        body: method === "POST" ? "{}" : undefined,
      });
      expect(res.status, url).toBe(status);
      expect(errorSchema.safeParse(await res.json()).success, url).toBe(true);
      const documentedPath = url.split("?")[0].replace("/no-such-run", "/{runId}");
      const op = doc.paths[documentedPath][method.toLowerCase()];
      expect(Object.keys(op.responses as object), url).toContain(String(status));
    }
  });
});
