// Comments and messages that name a file (`see lib/boot.ts`) must name one that exists: after a move
// they otherwise send the reader to nothing. Checks every path-like reference in the sources.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOTS = ["app", "components", "lib", "scripts", "test", "e2e", "bench", "prisma"];
const TOP = ["server.ts", "proxy.ts", "instrumentation.ts", ".dependency-cruiser.cjs", "playwright.config.ts"];
// Files that write made-up trees on purpose (the layering, both-stores and API-description tests build
// them to prove their checks fail).
const MADE_UP = new Set([
  "test/layering.test.ts",
  "test/file-references.test.ts",
  "test/both-stores.test.ts",
  "test/openapi.test.ts",
]);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : /\.(ts|tsx|mts|mjs|cjs|prisma)$/.test(name) ? [p] : [];
  });
}

const REF =
  /(?<![\w@/.-])(?:app|components|lib|scripts|test|e2e|bench|prisma)\/[\w()[\].-]+(?:\/[\w()[\].-]+)*\.(?:ts|tsx|mts|mjs|cjs|prisma|json)\b/g;

describe("file references in the sources", () => {
  it("name files that exist", () => {
    const files = [...ROOTS.flatMap(walk), ...TOP.filter((f) => existsSync(f))].filter((f) => !MADE_UP.has(f));
    expect(files.length).toBeGreaterThan(300);
    const refs = files.flatMap((f) =>
      readFileSync(f, "utf8")
        .split("\n")
        .flatMap((line, i) => [...line.matchAll(REF)].map((m) => ({ at: `${f}:${i + 1}`, ref: m[0] }))),
    );
    expect(refs.length).toBeGreaterThan(50);
    expect(refs.filter((r) => !existsSync(r.ref)).map((r) => `${r.at} names ${r.ref}`)).toEqual([]);
  });
});
