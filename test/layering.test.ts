// The layering rules (.dependency-cruiser.cjs) hold for the tree, can fail, and lib/'s capability
// folders import each other without loops.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ESLint } from "eslint";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = process.cwd();
const DEPCRUISE = path.join(ROOT, "node_modules/.bin/depcruise");

describe("layering", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "tally-layering-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses each kind of violation in a tree that has them", () => {
    const files: Record<string, string> = {
      "lib/a.ts": 'import "server-only";\nimport { b } from "./b";\nexport const a = () => b;\n',
      "lib/b.ts": 'import { a } from "./a";\nexport const b = () => a;\n',
      "lib/uses-page.ts": 'import { page } from "../app/page";\nexport const x = page;\n',
      "app/page.tsx": "export const page = 1;\n",
      "components/widget.tsx": '"use client";\nimport { a } from "../lib/a";\nexport const w = a;\n',
      "components/typed.tsx": '"use client";\nimport type { a } from "../lib/a";\nexport type T = typeof a;\n',
      "lib/simulator/index.ts": "export const sim = 1;\n",
      "lib/worker/start.ts": 'import { sim } from "../simulator";\nexport const s = sim;\n',
      "lib/demo/start.ts": 'import { sim } from "../simulator";\nexport const s = sim;\n',
      "lib/platform/client.ts": 'import { s } from "../worker/start";\nexport const c = s;\n',
      "lib/queue/lease.ts": "export const claim = 1;\n",
      "lib/queue/enqueue.ts": 'import { claim } from "./lease";\nexport const e = claim;\n',
      "lib/queue/index.ts": 'export { claim } from "./lease";\nexport { e } from "./enqueue";\n',
      "lib/jobs/deep.ts": 'import { claim } from "../queue/lease";\nexport const d = claim;\n',
      "lib/jobs/surface.ts": 'import { claim } from "../queue";\nexport const s = claim;\n',
      "app/deep.ts": 'import { e } from "../lib/queue/enqueue";\nexport const a = e;\n',
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
    copyFileSync(path.join(ROOT, ".dependency-cruiser.cjs"), path.join(dir, ".dependency-cruiser.cjs"));
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { jsx: "react-jsx", moduleResolution: "bundler", module: "esnext" } }),
    );
    const run = spawnSync(
      DEPCRUISE,
      ["app", "components", "lib", "--config", ".dependency-cruiser.cjs", "--output-type", "err"],
      { cwd: dir, encoding: "utf8" },
    );
    const out = run.stdout + run.stderr;
    expect(run.status).not.toBe(0);
    expect(out).toMatch(/no-circular: lib\/a\.ts/);
    expect(out).toMatch(/lib-is-framework-free: lib\/uses-page\.ts → app\/page\.tsx/);
    expect(out).toMatch(/client-imports-server-for-types-only: components\/widget\.tsx → lib\/a\.ts/);
    expect(out).not.toMatch(/components\/typed\.tsx/);
    expect(out).toMatch(/simulator-only-in-demo-start: lib\/worker\/start\.ts → lib\/simulator\/index\.ts/);
    expect(out).not.toMatch(/simulator-only-in-demo-start: lib\/demo\/start\.ts/);
    expect(out).toMatch(/platform-is-a-leaf: lib\/platform\/client\.ts → lib\/worker\/start\.ts/);
    // A folder is used through its surface from outside; inside, its files import each other.
    expect(out).toMatch(/no-deep-import: lib\/jobs\/deep\.ts → lib\/queue\/lease\.ts/);
    expect(out).toMatch(/no-deep-import: app\/deep\.ts → lib\/queue\/enqueue\.ts/);
    expect(out).not.toMatch(/lib\/jobs\/surface\.ts/);
    expect(out).not.toMatch(/lib\/queue\/enqueue\.ts →/);
  });

  it("lib/'s folders import each other without loops", () => {
    const json = execFileSync(DEPCRUISE, ["lib", "--config", ".dependency-cruiser.cjs", "--output-type", "json"], {
      cwd: ROOT,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    const graph = JSON.parse(json) as { modules: { source: string; dependencies: { resolved: string }[] }[] };
    const folder = (p: string) => /^lib\/([^/]+)\//.exec(p)?.[1] ?? null;
    const edges = new Map<string, Set<string>>();
    for (const m of graph.modules) {
      const from = folder(m.source);
      if (!from || /\.test(-util)?\.ts$/.test(m.source)) continue;
      for (const d of m.dependencies) {
        const to = folder(d.resolved);
        if (to && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    // A folder that reaches itself through others is in a loop.
    const reaches = (start: string) => {
      const seen = new Set<string>();
      const stack = [...(edges.get(start) ?? [])];
      while (stack.length) {
        const f = stack.pop() as string;
        if (seen.has(f)) continue;
        seen.add(f);
        stack.push(...(edges.get(f) ?? []));
      }
      return seen;
    };
    const loops = [...edges.keys()].filter((f) => reaches(f).has(f));
    expect(edges.size).toBeGreaterThan(10);
    expect(loops).toEqual([]);
  });

  it("nothing outside lib/db.ts loads the SQLite driver to reach the app's connection (lint)", async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const code = 'import Database from "better-sqlite3";\nexport const open = (f: string) => new Database(f);\n';
    const restricted = async (filePath: string) =>
      (await eslint.lintText(code, { filePath: path.join(ROOT, filePath) }))
        .flatMap((r) => r.messages)
        .filter((m) => m.ruleId === "no-restricted-imports").length;
    expect(await restricted("lib/jobs/raw-sqlite.ts")).toBe(1);
    expect(await restricted("app/api/raw/route.ts")).toBe(1);
    expect(await restricted("components/raw.tsx")).toBe(1);
    const adapter =
      'import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";\nexport const a = PrismaBetterSQLite3;\n';
    expect(
      (await eslint.lintText(adapter, { filePath: path.join(ROOT, "lib/queue/raw.ts") }))[0].messages.map(
        (m) => m.ruleId,
      ),
    ).toContain("no-restricted-imports");
    // lib/db.ts itself, and the receiver's connection of its own, may.
    expect(await restricted("lib/db.ts")).toBe(0);
    expect(await restricted("lib/webhooks/store-sqlite.ts")).toBe(0);
  });

  it("every folder of lib/ is in the architecture map (docs/architecture.md)", () => {
    const map = readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
    const folders = readdirSync(path.join(ROOT, "lib"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.filter((f) => !map.includes(`| \`${f}/\` |`))).toEqual([]);
  });
});
