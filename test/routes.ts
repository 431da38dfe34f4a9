// Discovers every page and route handler under app/, so protection and hostile-input tests cover
// routes added later without anyone remembering to list them.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** URL of a page or route file, with each dynamic segment replaced by `fill`. */
export function urlOf(file: string, fill = "x1"): string {
  const rel = path.relative("app", path.dirname(file)).split(path.sep);
  const parts = rel
    .filter((s) => s && !/^\(.*\)$/.test(s))
    .map((s) => (s.startsWith("[") ? encodeURIComponent(fill) : s));
  return `/${parts.join("/")}`;
}

const files = walk("app");

export function pages(fill?: string): string[] {
  return files.filter((f) => /page\.tsx$/.test(f)).map((f) => urlOf(f, fill));
}

export function routes(fill?: string): { method: string; url: string }[] {
  return files
    .filter((f) => /route\.ts$/.test(f))
    .flatMap((f) => {
      const src = readFileSync(f, "utf8");
      const methods = [...src.matchAll(/export (?:const|async function) (GET|POST|PUT|PATCH|DELETE)\b/g)].map(
        (m) => m[1],
      );
      return methods.map((method) => ({ method, url: urlOf(f, fill) }));
    });
}
