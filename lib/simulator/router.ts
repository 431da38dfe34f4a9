import "server-only";
import { z } from "zod";
import { flatError, toDetail, validationReply, type Reply } from "./http";

export type Ctx = {
  method: string;
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  /** Parsed JSON for POST/PATCH with a body, otherwise undefined. */
  body: unknown;
  correlationId: string;
};

export type Route = {
  method: string;
  pattern: RegExp;
  keys: string[];
  handler: (ctx: Ctx) => Reply | Promise<Reply>;
};

/** `/v1/batch/{job_id}` → a route whose params hold `job_id`. Declare literal paths before templates. */
export function route(method: string, template: string, handler: Route["handler"]): Route {
  const keys: string[] = [];
  const source = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_m, key: string) => {
    keys.push(key);
    return "([^/]+)";
  });
  return { method, pattern: new RegExp(`^${source}$`), keys, handler };
}

export function match(routes: readonly Route[], method: string, path: string) {
  let pathMatched = false;
  for (const r of routes) {
    const m = r.pattern.exec(path);
    if (!m) continue;
    pathMatched = true;
    if (r.method !== method) continue;
    const params: Record<string, string> = {};
    r.keys.forEach((key, i) => {
      params[key] = decodeURIComponent(m[i + 1]);
    });
    return { route: r, params };
  }
  return { route: null, pathMatched };
}

/** Parses with zod; on failure answers 422 with FastAPI's detail list located in body/query/path. */
export function parseOr422<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: "body" | "query" | "path",
): { ok: true; data: z.output<S> } | { ok: false; reply: Reply } {
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { ok: true, data: parsed.data }
    : { ok: false, reply: validationReply(toDetail(parsed.error.issues, where)) };
}

const uuidParam = z.uuid();

/** UUID-typed path params (crawl, webhooks) answer 422 like FastAPI; others just 404. */
export function checkUuid(ctx: Ctx, key: string): Reply | null {
  const parsed = uuidParam.safeParse(ctx.params[key]);
  if (parsed.success) return null;
  return validationReply([{ loc: ["path", key], msg: "Input should be a valid UUID", type: "uuid_parsing" }]);
}

export const notFound = (ctx: Ctx, what: string) => flatError(404, "NOT_FOUND", `${what} not found`, ctx.correlationId);

export const pageParam = z.coerce.number().int().min(1).default(1);
export const pageSizeParam = (max: number, dflt: number) => z.coerce.number().int().min(1).max(max).default(dflt);

/** ISO datetime query parameter → epoch ms. */
export const dateParam = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), "Input should be a valid datetime")
  .transform((s) => Date.parse(s));
