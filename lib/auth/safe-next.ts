// Where to go after signing in: only a path on Tally's own origin. The check parses the candidate as a
// URL against an origin (as a browser would resolve it), so every spelling that leaves the origin is
// refused: `//evil.example`, `/\evil.example` (`/%5Cevil.example`), `/<TAB>/evil.example`
// (`/%09/evil.example`), `https://evil.example`, `javascript:…`. Safe for the browser and the server.

const BASE = "http://tally.invalid";

/** The same-origin path (with query and fragment) `next` names, or `/` when it names anything else. */
export function safeNextPath(next: string | null | undefined): string {
  if (typeof next !== "string" || next === "" || next.length > 2048) return "/";
  // Browsers drop tabs and newlines and read a backslash as a slash before resolving: refuse them all
  // rather than guess; no link Tally makes contains one.
  if (!next.startsWith("/") || /[\\\u0000-\u001f\u007f]/.test(next)) return "/";
  let u: URL;
  try {
    u = new URL(next, BASE);
  } catch {
    return "/";
  }
  if (u.origin !== BASE) return "/";
  const path = `${u.pathname}${u.search}${u.hash}`;
  // Resolved again, the normalized path must stay home too (`/..//evil.example` → `//evil.example`).
  if (path.startsWith("//") || new URL(path, BASE).origin !== BASE) return "/";
  return path;
}
