import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import pino, { type Logger as PinoLogger } from "pino";
import { slot } from "./runtime";
import { currentTraceId } from "./tracing";

// JSON lines through pino. The call sites keep one shape, `log.info(msg, fields)`; `log.child(fields)`
// gives a logger whose every line carries those fields (a run, a queue item). A request id set with
// withRequestId() rides along on every line written while that request is handled (AsyncLocalStorage),
// and so does the trace id when tracing is on (lib/tracing).
// Callers never pass secrets; redaction by path is the guard behind that.

type Level = "debug" | "info" | "warn" | "error";
export type Fields = Record<string, unknown>;

export type Logger = {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
  child(fields: Fields): Logger;
};

const SECRET_KEYS = [
  "secret",
  "previousSecret",
  "password",
  "token",
  "apiKey",
  "api_key",
  "authorization",
  "cookie",
  "smtpUrl",
  "slackUrl",
];
/** Redacted wherever they appear at the top level or one level down (`fields.headers.authorization`). */
export const REDACT_PATHS = [
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((k) => `*.${k}`),
  'headers["x-api-key"]',
  'headers["webhook-signature"]',
];

const requestContext = new AsyncLocalStorage<{ requestId: string }>();

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is a sane token, else a fresh one. */
export function requestIdFrom(header: string | null | undefined): string {
  return header && REQUEST_ID.test(header) ? header : randomUUID();
}

/** Runs fn with `requestId` on every log line written inside it (awaits included). */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return requestContext.run({ requestId }, fn);
}

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

const logger = slot<PinoLogger>("log.pino");
const destination = slot<NodeJS.WritableStream>("log.destination");

function build(level: Level = "info"): PinoLogger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      // The request id, and with tracing on the trace the line was written in (`trace_id`, as
      // OpenTelemetry's log conventions name it), so a line leads to its trace and back.
      mixin: () => {
        const id = requestContext.getStore()?.requestId;
        const traceId = currentTraceId();
        if (traceId) return id ? { requestId: id, trace_id: traceId } : { trace_id: traceId };
        return id ? { requestId: id } : {};
      },
    },
    destination.get() ?? pino.destination({ dest: 1, sync: true }),
  );
}

function root(): PinoLogger {
  return logger.getOr(() => build());
}

export function setLogLevel(level: Level): void {
  root().level = level;
}

/** Tests capture lines: every later line goes to `stream` (undefined: back to stdout). */
export function setLogDestinationForTests(stream: NodeJS.WritableStream | undefined, level: Level = "info"): void {
  if (stream) destination.set(stream);
  else destination.clear();
  logger.set(build(level));
}

function wrap(get: () => PinoLogger): Logger {
  return {
    debug: (msg, fields) => get().debug(fields ?? {}, msg),
    info: (msg, fields) => get().info(fields ?? {}, msg),
    warn: (msg, fields) => get().warn(fields ?? {}, msg),
    error: (msg, fields) => get().error(fields ?? {}, msg),
    child: (fields) => {
      // Bound to the root of the moment, so a level change reaches children made before it.
      let base: PinoLogger | undefined;
      let from: PinoLogger | undefined;
      return wrap(() => {
        const r = get();
        if (from !== r) {
          from = r;
          base = r.child(fields);
        }
        return base!;
      });
    },
  };
}

export const log: Logger = wrap(root);
