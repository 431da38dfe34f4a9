// Part of bench/diff.ts: renders a diff's blocks (JSON from the file named first) as the diff page does
// (components/collections/diff-blocks.tsx, react-dom/server), N times (second argument), and prints the
// median and longest milliseconds and the HTML's size as JSON. Run without the react-server condition:
// React's server-rendering build is not the React Server Components one.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { DiffBlocks } from "@/components/collections/diff-blocks";
import type { DiffView } from "@/lib/judging/diff-view";

const [file, rounds = "10"] = process.argv.slice(2);
const view = JSON.parse(readFileSync(file ?? "", "utf8")) as DiffView;
const times: number[] = [];
let bytes = 0;
for (let i = 0; i < Number(rounds); i++) {
  const t0 = performance.now();
  bytes = renderToString(
    createElement(DiffBlocks, { blocks: view.blocks, changes: view.changes, allHref: "/x" }),
  ).length;
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
console.log(JSON.stringify({ p50Ms: times[Math.floor(times.length / 2)], maxMs: times.at(-1), htmlBytes: bytes }));
