import "server-only";

// Structured one-line logs. Callers never pass secrets; redact() guards the obvious keys anyway.

type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const holder = globalThis as unknown as { __tallyLogLevel?: Level };

export function setLogLevel(level: Level): void {
  holder.__tallyLogLevel = level;
}

const SECRET_KEY = /secret|password|token|authorization|api[-_]?key/i;

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET_KEY.test(k) ? "[redacted]" : v;
  return out;
}

function write(level: Level, msg: string, fields: Record<string, unknown> = {}) {
  if (order[level] < order[holder.__tallyLogLevel ?? "info"]) return;
  const line = JSON.stringify({ t: new Date().toISOString(), level, msg, ...redact(fields) });
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(`${line}\n`);
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write("debug", msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write("info", msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write("warn", msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write("error", msg, fields),
};
