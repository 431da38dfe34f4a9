import "server-only";

/** One entry of a FastAPI-style 422 `detail` list. */
export type ValidationDetail = { loc: (string | number)[]; msg: string; type: string };

type ErrorInit = {
  status: number | null;
  code: string;
  message: string;
  correlationId?: string | null;
  retryable: boolean;
};

// Next bundles instrumentation (the worker) and the route handlers separately, so this module can
// exist twice in one process while the client lives once per process (lib/runtime/singleton.ts). `instanceof` therefore
// checks a brand (the stable kinds of the error's class chain) instead of the prototype chain,
// and names come from those kinds, not from class names a minifier may rename.
const BRAND = Symbol.for("tally.platform-error.kinds");
type Branded = { [BRAND]?: unknown };

/** Base of every error the client throws; `lib/` wrappers map these once to responses. */
export class PlatformError extends Error {
  static readonly kind: string = "PlatformError";
  readonly status: number | null;
  readonly code: string;
  readonly correlationId: string | null;
  readonly retryable: boolean;
  /**
   * Set when the platform itself looks down (several calls in a row answered 5xx or not at all):
   * the client has paused every call this long, and a queue item reschedules by it instead of
   * spending an attempt, so an outage alone dead-letters nothing. Absent for a one-off failure.
   */
  platformDownMs?: number;

  static [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== "object" || value === null) return false;
    const kinds = (value as Branded)[BRAND];
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }

  constructor(init: ErrorInit, options?: { cause?: unknown }) {
    super(init.message, options);
    const kinds: string[] = [];
    for (let c: unknown = new.target; typeof c === "function" && c !== Error; c = Object.getPrototypeOf(c)) {
      if (Object.hasOwn(c, "kind")) kinds.push(String(Reflect.get(c, "kind")));
    }
    Object.defineProperty(this, BRAND, { value: kinds });
    this.name = kinds[0] ?? "PlatformError";
    this.status = init.status;
    this.code = init.code;
    this.correlationId = init.correlationId ?? null;
    this.retryable = init.retryable;
  }
}

export class RateLimited extends PlatformError {
  static override readonly kind = "RateLimited";
  /** How long the platform asked us to wait (Retry-After, or our backoff when it sent none). */
  readonly retryAfterMs: number;
  constructor(init: Omit<ErrorInit, "retryable"> & { retryAfterMs: number }) {
    super({ ...init, retryable: true });
    this.retryAfterMs = init.retryAfterMs;
  }
}

export class PlatformUnauthorized extends PlatformError {
  static override readonly kind = "PlatformUnauthorized";
}
export class PlatformNotFound extends PlatformError {
  static override readonly kind = "PlatformNotFound";
}
export class PlatformConflict extends PlatformError {
  static override readonly kind = "PlatformConflict";
}
export class PaymentRequired extends PlatformError {
  static override readonly kind = "PaymentRequired";
}
/** 5xx from the platform. */
export class Upstream extends PlatformError {
  static override readonly kind = "Upstream";
}

export class Validation extends PlatformError {
  static override readonly kind = "Validation";
  readonly details: ValidationDetail[];
  constructor(init: ErrorInit & { details: ValidationDetail[] }) {
    super(init);
    this.details = init.details;
  }
}

/** No HTTP response at all (connection refused, reset, DNS). */
export class Network extends PlatformError {
  static override readonly kind = "Network";
  constructor(message: string, cause: unknown) {
    super({ status: null, code: "NETWORK_ERROR", message, retryable: true }, { cause });
  }
}

/** The per-request timeout (or the caller's deadline) expired before a response was read. */
export class Timeout extends PlatformError {
  static override readonly kind = "Timeout";
  constructor(message: string, status: number | null = null) {
    super({ status, code: "TIMEOUT", message, retryable: true });
  }
}

/** A 2xx whose body is not what the contract promises; `issues` name the offending field paths. */
export class InvalidResponse extends PlatformError {
  static override readonly kind = "InvalidResponse";
  readonly issues: { path: string; message: string }[];
  constructor(message: string, status: number, issues: { path: string; message: string }[]) {
    super({ status, code: "INVALID_RESPONSE", message, retryable: false });
    this.issues = issues;
  }
}

/** pollJob ran out of time before the job settled. */
export class JobTimeout extends PlatformError {
  static override readonly kind = "JobTimeout";
  readonly jobId: string;
  readonly lastStatus: string | null;
  readonly elapsedMs: number;
  constructor(init: { jobId: string; lastStatus: string | null; elapsedMs: number }) {
    super({
      status: null,
      code: "JOB_TIMEOUT",
      message: `job ${init.jobId} did not settle within ${init.elapsedMs} ms (last status: ${init.lastStatus ?? "unknown"})`,
      retryable: true,
    });
    this.jobId = init.jobId;
    this.lastStatus = init.lastStatus;
    this.elapsedMs = init.elapsedMs;
  }
}

export const isPlatformError = (e: unknown): e is PlatformError => e instanceof PlatformError;
