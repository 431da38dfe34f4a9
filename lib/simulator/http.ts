import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";

/** What a route returns; the server writes it. `body: undefined` means no body (204). */
export type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

export type FastApiDetail = { loc: (string | number)[]; msg: string; type: string };

export const MAX_BODY_BYTES = 1024 * 1024;

/** The platform's flat error envelope (no `error` wrapper). */
export function flatError(
  status: number,
  code: string,
  message: string,
  correlationId: string,
  retryable = false,
): Reply {
  return {
    status,
    body: { code, message, correlation_id: correlationId, retryable },
    headers: { "X-Request-ID": correlationId },
  };
}

export const validationReply = (detail: FastApiDetail[]): Reply => ({ status: 422, body: { detail } });

function detailType(issue: z.core.$ZodIssue): { type: string; missing: boolean } {
  switch (issue.code) {
    case "invalid_type":
      return issue.message.endsWith("received undefined")
        ? { type: "missing", missing: true }
        : { type: `${issue.expected}_type`, missing: false };
    case "too_small":
      return {
        type: issue.origin === "array" || issue.origin === "string" ? "too_short" : "greater_than_equal",
        missing: false,
      };
    case "too_big":
      return {
        type: issue.origin === "array" || issue.origin === "string" ? "too_long" : "less_than_equal",
        missing: false,
      };
    case "invalid_value":
      return { type: "enum", missing: false };
    case "invalid_format":
      return { type: `${issue.format}_parsing`, missing: false };
    case "unrecognized_keys":
      return { type: "extra_forbidden", missing: false };
    default:
      return { type: "value_error", missing: false };
  }
}

/** zod issues → FastAPI's `detail` list, so 422s look like the platform's. */
export function toDetail(issues: readonly z.core.$ZodIssue[], where: "body" | "query" | "path"): FastApiDetail[] {
  return issues.map((issue) => {
    const { type, missing } = detailType(issue);
    return {
      loc: [where, ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))],
      msg: missing ? "Field required" : issue.message,
      type,
    };
  });
}

/** Reads the body up to a limit; null when it is larger (the caller answers 413). */
export async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buf.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/** JSON body for POST/PATCH, or a FastAPI-style 422 when it is empty or not JSON. */
export function parseJsonBody(raw: Buffer): { ok: true; value: unknown } | { ok: false; reply: Reply } {
  if (raw.length === 0)
    return { ok: false, reply: validationReply([{ loc: ["body"], msg: "Field required", type: "missing" }]) };
  try {
    return { ok: true, value: JSON.parse(raw.toString("utf8")) };
  } catch {
    return {
      ok: false,
      reply: validationReply([{ loc: ["body", 0], msg: "JSON decode error", type: "json_invalid" }]),
    };
  }
}

export function writeReply(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  if (reply.body === undefined) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(reply.body);
  headers["Content-Type"] = "application/json";
  headers["Content-Length"] = String(Buffer.byteLength(text));
  res.writeHead(reply.status, headers);
  res.end(text);
}

/** Query string → plain object (last value wins), ready for a zod schema. */
export function queryObject(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of params) out[k] = v;
  return out;
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/** Page a list the way the platform does: page ≥ 1, page_count = ceil(n / size), past the end → []. */
export function pageOf<T>(items: readonly T[], page: number, pageSize: number) {
  return {
    slice: items.slice((page - 1) * pageSize, page * pageSize),
    page,
    page_size: pageSize,
    page_count: Math.ceil(items.length / pageSize),
  };
}
