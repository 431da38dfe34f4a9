import "server-only";
import { parseChecks, type Checks } from "../content-checks";
import { BadRequest, badRequestOf } from "../errors";
import { parseJsonBody, refuseBadText } from "../http";
import { createRunBodySchema, createRunQuerySchema } from "./contracts";
import { escalationSchema, type Rung } from "./escalation";
import { parseText, parseValues, type ParsedList } from "./parse-list";
import type { RunOptions } from "./create";

// The body of POST /api/runs: JSON {"name"?, "urls", "formats"?, "renderJs"?, "batchSize"?,
// "ignoreInvalid"?}, or a text/plain (one URL a line) or text/csv (first column, header optional)
// body with the options in the query. Bigger than the operator routes' 256 KB JSON limit: a list of
// 100,000 URLs is a few megabytes.

export const MAX_LIST_BYTES = 32 * 1024 * 1024;

/** A query parameter that carries JSON (`checks`, `escalation`): its value parsed, or a 400 naming it. */
function jsonParam(name: string, value: string | undefined): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    throw new BadRequest(`Invalid query: ${name}: not JSON`, [{ path: name, message: "not JSON" }]);
  }
}

/** A run's `escalation` from a query parameter, checked as the JSON body's is. */
function escalationOrRefuse(value: string | undefined): Rung[] | undefined {
  const parsed = escalationSchema.optional().safeParse(jsonParam("escalation", value));
  if (parsed.success) return parsed.data;
  throw badRequestOf("Invalid query", parsed.error.issues, ["escalation"]);
}

/** A run's or collection's `checks`, with the default set filled in; a 400 naming the field when invalid. */
export function checksOrRefuse(input: unknown): Checks {
  const out = parseChecks(input);
  if (out.ok) return out.checks;
  const issues = out.problems.map((p) => ({ path: p.path ? `checks.${p.path}` : "checks", message: p.message }));
  const first = issues[0];
  throw new BadRequest(`Invalid body${first ? `: ${first.path}: ${first.message}` : ""}`, issues);
}

/**
 * A request carrying a URL list (a run's, a collection's): its content type and whole body, refused
 * with a 400 when it is over MAX_LIST_BYTES or arrived shorter than it said (a body cut on its way by a
 * proxy's buffer limit must not become a shorter list that looks complete).
 */
export async function readListBody(req: Request): Promise<{ type: string; text: string }> {
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_LIST_BYTES) throw new BadRequest(`Body larger than ${MAX_LIST_BYTES} bytes`);
  const text = await req.text();
  if (text.length > MAX_LIST_BYTES) throw new BadRequest(`Body larger than ${MAX_LIST_BYTES} bytes`);
  const received = Buffer.byteLength(text);
  if (declared > 0 && received < declared)
    throw new BadRequest(`The body arrived incomplete (${received} of ${declared} bytes): nothing was saved`);
  return { type, text };
}

/** A query flag: "true" or "1" is on, anything else given is off, absent is undefined. */
export const queryFlag = (v: string | undefined) => (v === undefined ? undefined : v === "true" || v === "1");

export async function readRunRequest(req: Request): Promise<{ list: ParsedList; opts: RunOptions }> {
  const { type, text } = await readListBody(req);
  if (type.startsWith("application/json")) {
    // The operator routes' JSON rules (no NUL, no unpaired surrogate in any string): 400, not a 500 inside a query.
    const json = parseJsonBody(text);
    const parsed = createRunBodySchema.safeParse(json);
    if (!parsed.success) throw badRequestOf("Invalid body", parsed.error.issues);
    const b = parsed.data;
    return {
      list: parseValues(b.urls),
      opts: {
        name: b.name,
        formats: b.formats,
        renderJs: b.renderJs,
        batchSize: b.batchSize,
        ignoreInvalid: b.ignoreInvalid,
        checks: checksOrRefuse(b.checks),
        escalation: b.escalation,
        maxTokens: b.maxTokens ?? null,
      },
    };
  }
  const csv = type.startsWith("text/csv");
  if (!csv && !type.startsWith("text/plain"))
    throw new BadRequest(
      "Send the list as application/json, text/plain (one URL a line) or text/csv (URLs in the first column)",
    );
  if (text.includes("\u0000")) throw new BadRequest("The list contains a NUL character");
  const query = Object.fromEntries(new URL(req.url).searchParams);
  refuseBadText(query, "query");
  const q = createRunQuerySchema.safeParse(query);
  if (!q.success) {
    const first = q.error.issues[0];
    throw new BadRequest(`Invalid query${first ? `: ${first.path.join(".")}: ${first.message}` : ""}`);
  }
  const formats = q.data.formats?.split(",") as ("markdown" | "html")[] | undefined;
  return {
    list: parseText(text, csv ? "csv" : "lines"),
    opts: {
      name: q.data.name,
      batchSize: q.data.batchSize,
      ignoreInvalid: queryFlag(q.data.ignoreInvalid),
      renderJs: queryFlag(q.data.renderJs),
      formats,
      checks: checksOrRefuse(jsonParam("checks", q.data.checks)),
      escalation: escalationOrRefuse(q.data.escalation),
      maxTokens: q.data.maxTokens ?? null,
    },
  };
}
