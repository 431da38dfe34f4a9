import { z } from "zod";
import { ROLE_SUMMARY, ROLES, SESSION_COOKIE } from "../auth";
import { errorBodySchema, STATUS, type RouteDoc } from "../http";

// The OpenAPI 3.1 description of every /api route, built from the descriptions the route wrappers
// attach to their handlers (lib/http/route-doc.ts): the same zod schemas the routes parse with, so
// the document cannot say something the route does not do. It knows nothing of app/: the caller
// (scripts/openapi.ts, test/openapi.test.ts) loads the route modules and hands their handlers over.
// `npm run docs:openapi` writes docs/openapi.json (served by GET /api/openapi.json) and
// docs/api-reference.md; test/openapi.test.ts fails when either differs from what the code says.

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type ApiRoute = { method: HttpMethod; path: string; file: string; doc: RouteDoc };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The URL path of a route file: `app/api/jobs/[jobId]/route.ts` → `/api/jobs/{jobId}` (route groups dropped). */
export function apiPathOf(file: string): string {
  const segments = file.split(/[\\/]/).slice(1, -1);
  const parts = segments
    .filter((s) => !/^\(.*\)$/.test(s))
    .map((s) => {
      const m = /^\[(?:\.\.\.)?([^\]]+)\]$/.exec(s);
      return m ? `{${m[1]}}` : s;
    });
  return `/${parts.join("/")}`;
}

/** The routes one module exports; a method without a description is an error (nothing goes undescribed). */
export function routesOf(file: string, mod: Record<string, unknown>, docOf: (h: unknown) => RouteDoc | undefined) {
  const routes: ApiRoute[] = [];
  for (const method of HTTP_METHODS) {
    if (!(method in mod)) continue;
    const doc = docOf(mod[method]);
    if (!doc) {
      throw new Error(
        `${file}: ${method} carries no description; build it with operatorRoute/cronRoute or wrap it in documented()`,
      );
    }
    routes.push({ method, path: apiPathOf(file), file, doc });
  }
  return routes;
}

/** What each error status means here, and which codes (lib/errors.ts) it carries. */
function errorCodesFor(status: number): string[] {
  if (status === 500) return ["internal_error"];
  return Object.entries(STATUS)
    .filter(([, s]) => s === status)
    .map(([code]) => code);
}
const ERROR_TEXT: Record<number, string> = {
  400: "The input is invalid: a field, the query, the path or the JSON itself (`details` lists each problem)",
  401: "Not signed in, or the credential is wrong",
  402: "The platform refused for want of credit",
  403: "The role is too low for this route, or a cross-origin request from a browser session (CSRF check)",
  404: "Not found",
  409: "Conflict with the current state (already running, already exists, not in a state that allows it)",
  422: "The platform refused the input",
  429: "Too many requests; `Retry-After` says when to try again",
  500: "Something failed on Tally's side",
  502: "The platform (or the simulator) failed or could not be reached",
  503: "A dependency is unavailable (the database, or the platform while it counts as down); `Retry-After` says when to try again where it is known",
  504: "The platform did not answer in time",
};

const toJson = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as JsonObject;

/** Turns a zod schema into JSON Schema 2020-12 (what OpenAPI 3.1 uses), as a client sends or reads it. */
class Schemas {
  /** Shared definitions (recursive schemas such as any JSON value), by name. */
  readonly defs = new Map<string, JsonObject>();
  /** Each definition's text as zod wrote it, to find a repeat; any JSON value (z.json()) is named up front. */
  private readonly seen = new Map<string, string>([
    ["JsonValue", JSON.stringify(Object.values(toJson(z.object({ v: z.json() })).$defs ?? {})[0])],
  ]);

  convert(schema: z.ZodType): JsonObject {
    const raw = toJson(schema);
    delete raw.$schema;
    const local = (raw.$defs ?? {}) as Record<string, JsonObject>;
    delete raw.$defs;
    // A definition is shared by content: the same recursive schema used by two routes is one component.
    const renamed = new Map<string, string>();
    const fresh: [string, JsonObject][] = [];
    for (const [name, def] of Object.entries(local)) {
      const text = JSON.stringify(def);
      const existing = [...this.seen].find(([, t]) => t === text)?.[0];
      const id = existing ?? (name.startsWith("__") ? `Shared${this.seen.size + 1}` : name);
      if (!existing && this.seen.has(id)) throw new Error(`Two different schemas are both named ${id}`);
      renamed.set(name, id);
      if (!existing) this.seen.set(id, text);
      if (!this.defs.has(id) && !fresh.some(([f]) => f === id)) fresh.push([id, def]);
    }
    const fix = (v: Json): Json => {
      if (Array.isArray(v)) return v.map(fix);
      if (v === null || typeof v !== "object") return v;
      const out: JsonObject = {};
      for (const [k, x] of Object.entries(v)) {
        if (k === "$ref" && typeof x === "string" && x.startsWith("#/$defs/")) {
          out.$ref = `#/components/schemas/${renamed.get(x.slice("#/$defs/".length)) ?? x}`;
        } else if (k === "pattern" && v.format === "date-time") {
          // zod writes its ISO date-time check out as a long pattern; `format` already says it
          continue;
        } else if ((k === "minimum" || k === "maximum") && Math.abs(x as number) === Number.MAX_SAFE_INTEGER) {
          // z.int()'s safe-integer bounds: true of every integer a client sends, noise in a reference
          continue;
        } else out[k] = fix(x);
      }
      return out;
    };
    for (const [id, def] of fresh) this.defs.set(id, fix(def) as JsonObject);
    return fix(raw) as JsonObject;
  }
}

/** An object schema's properties as OpenAPI parameters (`in` query or path). */
function parametersOf(schemas: Schemas, schema: z.ZodType, where: "query" | "path", route: ApiRoute): JsonObject[] {
  const json = schemas.convert(schema);
  const props = json.properties as Record<string, JsonObject> | undefined;
  if (json.type !== "object" || !props) {
    throw new Error(`${route.method} ${route.path}: the ${where} schema must be an object of named fields`);
  }
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, prop]) => {
    const { description, ...rest } = prop;
    return {
      name,
      in: where,
      required: where === "path" || required.has(name),
      ...(typeof description === "string" ? { description } : {}),
      schema: rest,
    };
  });
}

function securityOf(doc: RouteDoc): { security: Json; roleNote: string } {
  switch (doc.access.kind) {
    case "operator":
      return {
        security: [{ session: [doc.access.role] }, { apiToken: [doc.access.role] }],
        roleNote: `Role: **${doc.access.role}**${doc.access.role === "admin" ? "" : " or above"} (session or API token).`,
      };
    case "cron":
      return { security: [{ cronSecret: [] }], roleNote: "Scheduler: `Authorization: Bearer $TALLY_CRON_SECRET`." };
    case "metrics":
      return {
        security: [{ metricsToken: [] }],
        roleNote: "Scraper: `Authorization: Bearer $TALLY_METRICS_TOKEN` (or TALLY_API_TOKEN).",
      };
    case "public":
      return { security: [], roleNote: "Public: no credentials." };
  }
}

/** The error statuses a route can answer: what its wrapper always can, plus what its domain declares. */
export function errorStatusesOf(route: ApiRoute): number[] {
  const { doc, method } = route;
  const out = new Set<number>(doc.errors ?? []);
  if (doc.access.kind === "operator") {
    out.add(401).add(500);
    // a role above viewer, or the CSRF check on a browser session's mutation
    if (doc.access.role !== "viewer" || method !== "GET") out.add(403);
    if (doc.body || doc.query || doc.params || doc.reads) out.add(400);
  }
  if (doc.access.kind === "cron") out.add(400).add(401).add(500);
  return [...out].sort((a, b) => a - b);
}

function successContent(schemas: Schemas, doc: RouteDoc): JsonObject {
  switch (doc.produces ?? "json") {
    case "json":
      return { "application/json": { schema: doc.answer ? schemas.convert(doc.answer) : {} } };
    case "csv":
      return { "text/csv": { schema: { type: "string" } } };
    case "jsonl-or-csv":
      return {
        "application/x-ndjson": { schema: { type: "string", description: "One JSON object per line (format=jsonl)" } },
        "text/csv": { schema: { type: "string", description: "A header row, then one row per item (format=csv)" } },
      };
    case "prometheus":
      return { "text/plain; version=0.0.4": { schema: { type: "string" } } };
  }
}

function operationOf(schemas: Schemas, route: ApiRoute): JsonObject {
  const { doc, method, path } = route;
  const { security, roleNote } = securityOf(doc);
  const parameters = [
    ...(doc.params ? parametersOf(schemas, doc.params, "path", route) : []),
    ...(doc.query ? parametersOf(schemas, doc.query, "query", route) : []),
    ...(doc.reads?.textQuery ? parametersOf(schemas, doc.reads.textQuery, "query", route) : []),
  ];
  const named = new Set(parameters.filter((p) => p.in === "path").map((p) => p.name));
  for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
    if (!named.has(name)) throw new Error(`${method} ${path}: the path parameter ${name} has no schema (params)`);
  }
  const status = String(doc.status ?? 200);
  const responses: JsonObject = {
    [status]: {
      description: doc.answer || doc.produces ? "Success" : "Success (the answer's shape is not yet a zod contract)",
      content: successContent(schemas, doc),
    },
  };
  for (const s of errorStatusesOf(route)) responses[String(s)] = { $ref: `#/components/responses/${s}` };
  for (const [s, other] of Object.entries(doc.otherAnswers ?? {})) {
    responses[s] = {
      description: other.description,
      content: { "application/json": { schema: other.answer ? schemas.convert(other.answer) : {} } },
    };
  }
  const operation: JsonObject = {
    operationId: operationIdOf(method, path),
    summary: doc.summary ?? "",
    description: [doc.description, roleNote].filter(Boolean).join("\n\n"),
    tags: [tagOf(path)],
    security,
    ...(doc.access.kind === "operator" ? { "x-tally-role": doc.access.role } : {}),
    ...(parameters.length ? { parameters } : {}),
  };
  if (doc.body && method !== "GET") {
    operation.requestBody = {
      required: !doc.bodyOptional,
      content: { "application/json": { schema: schemas.convert(doc.body) } },
    };
  }
  if (doc.reads && method !== "GET") {
    const text = Object.fromEntries(doc.reads.text.map((type) => [type, { schema: { type: "string" } }]));
    operation.requestBody = {
      required: true,
      content: { "application/json": { schema: schemas.convert(doc.reads.json) }, ...text },
    };
  }
  operation.responses = responses;
  return operation;
}

/** `GET /api/jobs/{jobId}/results` → `getJobsJobIdResults`: stable, unique per method and path. */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, "")
    .split(/[/{}.\-_]+/)
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

function tagOf(path: string): string {
  return path.split("/")[2] ?? "api";
}

/** The OpenAPI 3.1 document of `routes`. */
export function buildOpenApiDocument(routes: ApiRoute[], info: { version: string }): JsonObject {
  const schemas = new Schemas();
  const sorted = [...routes].sort(
    (a, b) => a.path.localeCompare(b.path) || HTTP_METHODS.indexOf(a.method) - HTTP_METHODS.indexOf(b.method),
  );
  const paths: Record<string, JsonObject> = {};
  for (const route of sorted) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operationOf(schemas, route);
  }
  const used = [...new Set(sorted.flatMap(errorStatusesOf))].sort((a, b) => a - b);
  const responses: JsonObject = {};
  for (const s of used) {
    const codes = errorCodesFor(s);
    responses[String(s)] = {
      description: `${ERROR_TEXT[s] ?? "Error"}${codes.length ? ` (error: ${codes.map((c) => `\`${c}\``).join(", ")})` : ""}`,
      ...(s === 429
        ? { headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer" } } } }
        : {}),
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  const errorSchema = schemas.convert(errorBodySchema);
  const tags = [...new Set(sorted.map((r) => tagOf(r.path)))].sort().map((name) => ({ name }));
  return {
    openapi: "3.1.0",
    info: {
      title: "Tally API",
      version: info.version,
      description: [
        "Every route under /api, generated from the zod contracts the routes parse with (`npm run docs:openapi`).",
        "Operator routes take a session cookie (sign in with POST /api/auth/login) or `Authorization: Bearer <API token>`.",
        `Roles, lowest first: ${ROLES.map((r) => `${r} (${ROLE_SUMMARY[r]})`).join("; ")}.`,
        "Every error answers the one JSON shape `Error`: `{error, message, details?}`.",
      ].join("\n\n"),
    },
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    tags,
    paths,
    components: {
      schemas: { Error: errorSchema, ...Object.fromEntries(schemas.defs) },
      responses,
      securitySchemes: {
        session: {
          type: "apiKey",
          in: "cookie",
          name: SESSION_COOKIE,
          description: "The session cookie POST /api/auth/login sets",
        },
        apiToken: {
          type: "http",
          scheme: "bearer",
          description: "A personal API token (Settings → API tokens, POST /api/tokens) or TALLY_API_TOKEN",
        },
        cronSecret: { type: "http", scheme: "bearer", description: "TALLY_CRON_SECRET: the scheduler's credential" },
        metricsToken: {
          type: "http",
          scheme: "bearer",
          description: "TALLY_METRICS_TOKEN (or TALLY_API_TOKEN): a Prometheus scraper's credential",
        },
      },
    },
  };
}
