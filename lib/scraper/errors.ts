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

/** Base of every error the client throws; `lib/` wrappers map these once to responses. */
export class ScraperError extends Error {
  readonly status: number | null;
  readonly code: string;
  readonly correlationId: string | null;
  readonly retryable: boolean;

  constructor(init: ErrorInit, options?: { cause?: unknown }) {
    super(init.message, options);
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code;
    this.correlationId = init.correlationId ?? null;
    this.retryable = init.retryable;
  }
}

export class RateLimited extends ScraperError {
  /** How long the platform asked us to wait (Retry-After, or our backoff when it sent none). */
  readonly retryAfterMs: number;
  constructor(init: Omit<ErrorInit, "retryable"> & { retryAfterMs: number }) {
    super({ ...init, retryable: true });
    this.retryAfterMs = init.retryAfterMs;
  }
}

export class Unauthorized extends ScraperError {}
export class NotFound extends ScraperError {}
export class Conflict extends ScraperError {}
export class PaymentRequired extends ScraperError {}
/** 5xx from the platform. */
export class Upstream extends ScraperError {}

export class Validation extends ScraperError {
  readonly details: ValidationDetail[];
  constructor(init: ErrorInit & { details: ValidationDetail[] }) {
    super(init);
    this.details = init.details;
  }
}

/** No HTTP response at all (connection refused, reset, DNS). */
export class Network extends ScraperError {
  constructor(message: string, cause: unknown) {
    super({ status: null, code: "NETWORK_ERROR", message, retryable: true }, { cause });
  }
}

/** The per-request timeout (or the caller's deadline) expired before a response was read. */
export class Timeout extends ScraperError {
  constructor(message: string, status: number | null = null) {
    super({ status, code: "TIMEOUT", message, retryable: true });
  }
}

/** A 2xx whose body is not what the contract promises; `issues` name the offending field paths. */
export class InvalidResponse extends ScraperError {
  readonly issues: { path: string; message: string }[];
  constructor(message: string, status: number, issues: { path: string; message: string }[]) {
    super({ status, code: "INVALID_RESPONSE", message, retryable: false });
    this.issues = issues;
  }
}

/** pollJob ran out of time before the job settled. */
export class JobTimeout extends ScraperError {
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

export const isScraperError = (e: unknown): e is ScraperError => e instanceof ScraperError;
