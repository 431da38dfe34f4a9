// Docs rot silently: a moved heading or a renamed file breaks links nobody clicks. Every relative link
// in README.md and docs/**/*.md must name a file that exists and, with a #fragment, a heading in it
// (GitHub's anchors). The README's commands table must name every npm script of package.json.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = process.cwd();

function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(`${dir}/${e.name}`) : e.name.endsWith(".md") ? [`${dir}/${e.name}`] : [],
    );
  return ["README.md", ...walk("docs")];
}

/** Text outside fenced code blocks and inline code, where a `[x](y)` is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "``");
}

/** GitHub's heading anchor: lower case, punctuation dropped (not `-` or `_`), spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a markdown text offers, repeated headings numbered as GitHub does (-1, -2 …). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const withoutFences = markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, "");
  for (const m of withoutFences.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  // Explicit anchors (`<a id="…"></a>`, as the generated API reference writes them) work on GitHub too.
  for (const m of withoutFences.matchAll(/<a (?:id|name)="([^"]+)"/g)) out.add(m[1]);
  return out;
}

/** The broken relative links of one file: `file: [text](target) — why`. */
function brokenLinks(file: string, markdown: string, read: (p: string) => string | undefined): string[] {
  const problems: string[] = [];
  for (const m of prose(markdown).matchAll(/\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = m[2];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
    const [rawPath, fragment] = target.split("#", 2) as [string, string | undefined];
    const resolved = rawPath === "" ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), rawPath));
    const text = read(resolved);
    if (text === undefined) {
      problems.push(`${file}: [${m[1]}](${target}): ${resolved} does not exist`);
      continue;
    }
    if (fragment !== undefined && !anchors(text).has(fragment)) {
      problems.push(`${file}: [${m[1]}](${target}): no heading #${fragment} in ${resolved}`);
    }
  }
  return problems;
}

function readRepoFile(p: string): string | undefined {
  const full = path.join(ROOT, p);
  if (!existsSync(full)) return undefined;
  return statSync(full).isDirectory() ? "" : readFileSync(full, "utf8");
}

describe("documentation links", () => {
  const files = markdownFiles();

  it("finds the docs", () => {
    expect(files).toContain("docs/README.md");
    expect(files.length).toBeGreaterThan(10);
  });

  it("every relative link in README.md and docs/ names an existing file and heading", () => {
    const problems = files.flatMap((f) => brokenLinks(f, readFileSync(path.join(ROOT, f), "utf8"), readRepoFile));
    expect(problems).toEqual([]);
  });

  it("the checker catches a missing file, a missing heading and a heading's anchor as GitHub makes it", () => {
    const docs: Record<string, string> = {
      "docs/a.md": "# A\n\n## Metrics (`GET /api/metrics`)\n\n## Notes\n\n## Notes\n",
      "docs/b.md":
        "[ok](a.md#metrics-get-apimetrics) [ok](a.md#notes-1) [ok](#b) [ok](https://example.com/x#y) " +
        '[gone](c.md) [no heading](a.md#metrics) [no heading](#nowhere) `[in code](c.md)` [explicit](#here)\n\n# B\n<a id="here"></a>\n',
    };
    expect(brokenLinks("docs/b.md", docs["docs/b.md"], (p) => docs[p])).toEqual([
      "docs/b.md: [gone](c.md): docs/c.md does not exist",
      "docs/b.md: [no heading](a.md#metrics): no heading #metrics in docs/a.md",
      "docs/b.md: [no heading](#nowhere): no heading #nowhere in docs/b.md",
    ]);
  });

  it("every docs/ page is reachable from docs/README.md", () => {
    const index = readFileSync(path.join(ROOT, "docs/README.md"), "utf8");
    const linked = new Set(
      [...prose(index).matchAll(/\]\(([^)#\s]+)/g)].map((m) => path.posix.normalize(`docs/${m[1]}`)),
    );
    expect(files.filter((f) => f.startsWith("docs/") && f !== "docs/README.md" && !linked.has(f))).toEqual([]);
  });

  it("the README's commands table names every npm script of package.json", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const table = readme.slice(readme.indexOf("## Commands"));
    const named = new Set([...table.matchAll(/^\| `npm (?:run )?([\w:-]+)/gm)].map((m) => m[1]));
    const scripts = Object.keys(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts);
    expect(scripts.length).toBeGreaterThan(20);
    // A lifecycle hook (prestart, postinstall) is named in the row of the command it runs with.
    const missing = scripts.filter((s) =>
      /^(pre|post)/.test(s) && !named.has(s) ? !table.includes(`\`${s}\``) : !named.has(s),
    );
    expect(missing).toEqual([]);
  });
});
