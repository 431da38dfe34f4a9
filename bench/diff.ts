// npm run bench:diff -- [--kb 1000] [--rounds 10] [--result FILE]
// Issue 49's figure: the diff page of a one-line change in a 1 MB page, under 1 s. Measured as the page
// spends it on the server, in this process: the diff on the judging pool (lib/judging judgeDiff: both
// versions sent to a thread, aligned, cut into changes with their context, word marks; only the shown
// lines sent back), then the page's diff rendered to HTML (components/collections/diff-blocks.tsx with
// react-dom/server, in a child process: bench/diff-render.ts). The change sits in the middle of the page (the common start and end are matched in
// linear time, so it is the slowest place for them), and again at the end. Also the whole page (?all=1).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { z } from "zod";
import { closeJudgePool, judgeDiff, type DiffView } from "@/lib/judging";
import { machine } from "./common";

const { values } = parseArgs({
  options: {
    kb: { type: "string", default: "1000" },
    rounds: { type: "string", default: "10" },
    result: { type: "string" },
  },
  strict: true,
});
const kb = Number(values.kb);
const rounds = Number(values.rounds);

/** A page of `kb` kilobytes of markdown: paragraphs of ~90 characters with blank lines between. */
function page(): string[] {
  const lines: string[] = [];
  for (let size = 0, i = 0; size < kb * 1000; i++) {
    const line = `Paragraph ${i}: the price of item ${i % 997} is ${(i * 7) % 1000} euros, shipping in ${i % 9} days.`;
    lines.push(line, "");
    size += line.length + 2;
  }
  return lines;
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const max = (xs: number[]) => Math.max(...xs);

const rendered = z.object({ p50Ms: z.number(), maxMs: z.number(), htmlBytes: z.number() });
const tmp = mkdtempSync(path.join(os.tmpdir(), "tally-bench-diff-"));

/** The page's render of the blocks, timed in a process without the react-server condition. */
function render(view: DiffView) {
  const file = path.join(tmp, "view.json");
  writeFileSync(file, JSON.stringify(view));
  const out = execFileSync("node_modules/.bin/tsx", ["bench/diff-render.ts", file, String(rounds)], {
    encoding: "utf8",
  });
  return rendered.parse(JSON.parse(out.trim().split("\n").at(-1) ?? "{}"));
}

async function measure(label: string, before: string, after: string, context?: number) {
  const diffMs: number[] = [];
  let view: DiffView | undefined;
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    const j = await judgeDiff(before, after, context);
    diffMs.push(performance.now() - t0);
    if (!j.ok) throw new Error(`${label}: the pool stopped the diff (${j.failure}: ${j.message})`);
    view = j.value;
  }
  if (!view) throw new Error("no rounds");
  const r = render(view);
  const row = {
    label,
    changes: view.changes,
    diffP50Ms: Math.round(p50(diffMs)),
    diffMaxMs: Math.round(max(diffMs.slice(1))),
    renderP50Ms: Math.round(r.p50Ms),
    renderMaxMs: Math.round(r.maxMs),
    totalMaxMs: Math.round(max(diffMs.slice(1)) + r.maxMs),
    htmlBytes: r.htmlBytes,
  };
  console.log(
    `${label.padEnd(36)} diff on the pool p50 ${row.diffP50Ms} ms (max ${row.diffMaxMs} after the first) · render p50 ${row.renderP50Ms} ms (max ${row.renderMaxMs}) · ${row.htmlBytes.toLocaleString("en")} bytes of HTML`,
  );
  return row;
}

async function main() {
  console.log(machine());
  const lines = page();
  const before = lines.join("\n");
  const middle = Math.floor(lines.length / 4) * 2;
  const changedAt = (at: number) => lines.map((l, i) => (i === at ? l.replace("euros", "dollars") : l)).join("\n");
  console.log(
    `A page of ${before.length.toLocaleString("en")} characters, ${lines.length.toLocaleString("en")} lines; ${rounds} rounds each (the first starts the pool's thread)`,
  );
  const rows = [];
  rows.push(await measure("one line changed in the middle", before, changedAt(middle)));
  rows.push(await measure("one line changed at the end", before, changedAt(lines.length - 2)));
  rows.push(await measure("the same, the whole page (?all=1)", before, changedAt(middle), Infinity));
  await closeJudgePool();
  rmSync(tmp, { recursive: true, force: true });
  const goal = rows[0].totalMaxMs < 1000 && rows[1].totalMaxMs < 1000;
  console.log("(the longest diff after the first round plus the longest render, per row)");
  console.log(`Goal (a one-line change in a ${kb} KB page under 1 s, changes only): ${goal ? "met" : "NOT met"}`);
  if (values.result) writeFileSync(values.result, JSON.stringify({ kb, chars: before.length, rows }));
}

void main();
