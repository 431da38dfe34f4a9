import "server-only";

// A body that cannot be read back as stored: the object is gone, or its bytes no longer hash to its key.
// Never an empty body in their place. Codes in lib/errors.ts's manner (a stable word a script can test);
// not TallyErrors yet: neither is the caller's to fix, so the route wrapper answers them as 500s until
// the readers that name the result (issue 40's wiring) map them.

export type BodyErrorCode = "body_missing" | "body_corrupt";

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
 * Whether `err` is a BodyError, by its code rather than its class: Next loads lib/ more than once in
 * a process, and the process's one body store (a singleton) throws the class of the copy that opened
 * it, which `instanceof` in another copy does not recognise.
 */
export function isBodyError(err: unknown): err is BodyError {
  if (!(err instanceof Error)) return false;
  const e = err as Partial<BodyError>;
  return (e.code === "body_missing" || e.code === "body_corrupt") && typeof e.key === "string";
}
