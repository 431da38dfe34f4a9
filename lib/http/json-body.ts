import "server-only";
import { BadRequest } from "../errors";

// Tally's rules for text in every JSON body and query: no NUL character (PostgreSQL refuses one in any
// text value, and no text Tally keeps holds one) and no unpaired UTF-16 surrogate (a JSON "\ud800"
// escape: not Unicode text, and Prisma's engine refuses the query that carries it). Both are refused
// with a 400 on both stores instead of failing deep inside a query as a 500.

/** Why `s` is not text Tally accepts, or null. */
export function textProblem(s: string): string | null {
  if (s.includes("\u0000")) return "contains a NUL character";
  if (!s.isWellFormed()) return "contains an unpaired surrogate (not Unicode text)";
  return null;
}

/**
 * The path of the first string (value or key) in a parsed JSON value that is not acceptable text, and
 * why, or null. A loop, not recursion: a body nested thousands deep must not overflow the stack.
 */
export function badTextPath(value: unknown): { path: string; problem: string } | null {
  const stack: Array<[unknown, string]> = [[value, ""]];
  const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === "string") {
      const problem = textProblem(v);
      if (problem) return { path: path || "(body)", problem };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], join(path, i)]);
    } else if (v && typeof v === "object") {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i];
        const problem = textProblem(k);
        if (problem) return { path: join(path, k), problem };
        stack.push([child, join(path, k)]);
      }
    }
  }
  return null;
}

/** JSON.parse with the rules above: a 400 for invalid JSON or for a string that breaks them. */
export function parseJsonBody(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadRequest("Body is not valid JSON");
  }
  const bad = badTextPath(value);
  if (bad) throw new BadRequest(`Invalid body: ${bad.path} ${bad.problem}`);
  return value;
}

/** The same rules for a flat record of strings (a query or path parameters): a 400 naming the field. */
export function refuseBadText(values: Record<string, unknown>, where: string): void {
  for (const [key, v] of Object.entries(values)) {
    const problem = typeof v === "string" ? textProblem(v) : null;
    if (problem) throw new BadRequest(`Invalid ${where}: ${key} ${problem}`);
  }
}
