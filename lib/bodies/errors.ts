import "server-only";

// A body that cannot be read back as stored: the object is gone, or its bytes no longer hash to its key
// (for good: isBodyError); or, for now, the store did not answer (BodyUnavailable: the network, a
// timeout, the disk). Never an empty body in their place. Codes in lib/errors.ts's manner (a stable word
// a script can test); readers that show a result report them by result (lib/results/bodies.ts).

export type BodyErrorCode = "body_missing" | "body_corrupt" | "body_unavailable";

export class BodyError extends Error {
  constructor(
    readonly code: BodyErrorCode,
    /** The body's key: the hex SHA-256 of its uncompressed bytes. */
    readonly key: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** No object under the key (never written, deleted, or lost by the backend). */
export class BodyMissing extends BodyError {
  constructor(key: string, where: string, options?: { cause?: unknown }) {
    super("body_missing", key, `body ${key} is missing: no object at ${where}`, options);
  }
}

/** The object is there, but does not decode or does not hash to its key. */
export class BodyCorrupt extends BodyError {
  constructor(key: string, why: string, options?: { cause?: unknown }) {
    super("body_corrupt", key, `body ${key} is corrupt: ${why}`, options);
  }
}

/**
 * The store could not be asked: a read failed on the way (no answer in time, a refused connection, an
 * error from S3 other than "no such key", a disk error). Nothing is known of the body: a reader that
 * shows results says so by result; a writer or a sink retries later.
 */
export class BodyUnavailable extends BodyError {
  constructor(key: string, location: string, why: string, options?: { cause?: unknown }) {
    super(
      "body_unavailable",
      key,
      `body ${key} cannot be read now: the body store at ${location} failed: ${why}`,
      options,
    );
  }
}

/** Whether `err` is a BodyUnavailable (by its code, as isBodyError). */
export function isBodyUnavailable(err: unknown): err is BodyUnavailable {
  if (!(err instanceof Error)) return false;
  const e = err as Partial<BodyError>;
  return e.code === "body_unavailable" && typeof e.key === "string";
}

/**
 * Whether `err` is a BodyError for good (missing or corrupt; not BodyUnavailable), by its code rather than its class: Next loads lib/ more than once in
 * a process, and the process's one body store (a singleton) throws the class of the copy that opened
 * it, which `instanceof` in another copy does not recognise.
 */
export function isBodyError(err: unknown): err is BodyError {
  if (!(err instanceof Error)) return false;
  const e = err as Partial<BodyError>;
  return (e.code === "body_missing" || e.code === "body_corrupt") && typeof e.key === "string";
}

/**
 * A backend's failure in a few words, for messages: its name, its system code, its message (no stack);
 * a timeout or an abort is "no answer in time".
 */
export function describeFailure(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  if (e.name === "AbortError" || e.name === "TimeoutError") return "no answer in time";
  const code = e.code ?? e.cause?.code;
  const parts = [e.name && e.name !== "Error" ? e.name : undefined, code, e.message];
  return parts.filter((p, i) => p && parts.indexOf(p) === i).join(": ") || String(err);
}
