import Link from "next/link";
import type { DiffBlock, ViewLine } from "@/lib/collections";
import { RevealedText } from "./revealed-text";

// A diff as code review tools show one (issue 49): each change in a box of its own with a few lines
// of context, numbered in the old and the new version, its replaced words marked; the unchanged
// stretches between changes collapsed to a count; "previous" and "next" links from change to change
// (plain anchors, so the keyboard and the browser's back button work). Scraped text stays React text.

const ROW = {
  added: "bg-emerald-50 text-emerald-950",
  removed: "bg-red-50 text-red-950",
  same: "text-slate-700",
} as const;
const WORD = { added: "rounded-sm bg-emerald-200", removed: "rounded-sm bg-red-200 line-through", same: "" } as const;
const SIGN = { added: "+", removed: "-", same: " " } as const;
const LABEL = { added: "added", removed: "removed", same: "unchanged" } as const;

const n = (x: number) => x.toLocaleString("en-US");

function Line({ line }: { line: ViewLine }) {
  return (
    <div
      className={`grid grid-cols-[2.75rem_2.75rem_1rem_minmax(0,1fr)] sm:grid-cols-[3.5rem_3.5rem_1rem_minmax(0,1fr)] ${ROW[line.kind]}`}
      data-kind={line.kind}
    >
      <span className="select-none pr-2 text-right text-slate-600">{line.oldNo ?? ""}</span>
      <span className="select-none pr-2 text-right text-slate-600">{line.newNo ?? ""}</span>
      <span className="select-none">
        <span aria-hidden>{SIGN[line.kind]}</span>
        <span className="sr-only">{LABEL[line.kind]}</span>
      </span>
      <span className="whitespace-pre-wrap pr-2 [overflow-wrap:anywhere]">
        {line.parts ? (
          line.parts.map((p, i) =>
            p.changed ? (
              <mark key={i} className={`${WORD[line.kind]} text-inherit`} data-word="">
                <RevealedText text={p.text} />
              </mark>
            ) : (
              <RevealedText key={i} text={p.text} />
            ),
          )
        ) : (
          <RevealedText text={line.text} />
        )}
      </span>
    </div>
  );
}

function Collapsed({ count, from, allHref }: { count: number; from: number; allHref: string }) {
  return (
    <p className="rounded border border-dashed border-slate-300 bg-slate-50 px-3 py-1.5 text-xs text-slate-600">
      ⋯ {n(count)} unchanged line{count === 1 ? "" : "s"} (from line {n(from)}) ·{" "}
      <Link href={allHref} className="text-brand-600 underline">
        show the whole page
      </Link>
    </p>
  );
}

export function DiffBlocks({
  blocks,
  changes,
  allHref,
}: {
  blocks: DiffBlock[];
  changes: number;
  /** Where the whole page, nothing collapsed, is shown. */
  allHref: string;
}) {
  // Each change's place among the changes (1-based), counted before rendering.
  const places: number[] = [];
  blocks.reduce((k, b) => {
    places.push(k + (b.kind === "change" ? 1 : 0));
    return places[places.length - 1];
  }, 0);
  return (
    <div className="space-y-2" data-testid="diff">
      {blocks.map((b, i) => {
        if (b.kind === "collapsed") return <Collapsed key={i} count={b.count} from={b.newFrom} allHref={allHref} />;
        const at = places[i];
        const first = b.lines[0];
        return (
          <section
            key={i}
            id={`change-${at}`}
            aria-label={`Change ${at} of ${changes}`}
            className="scroll-mt-4 overflow-hidden rounded border border-slate-200"
            data-testid="diff-change"
          >
            <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 bg-slate-50 px-3 py-1 text-xs text-slate-700">
              <span>
                Change {at} of {changes} · from line {n(first.newNo ?? first.oldNo ?? 1)}
              </span>
              <nav aria-label={`Change ${at}: previous and next`} className="flex gap-3">
                {at > 1 && (
                  <a href={`#change-${at - 1}`} className="text-brand-600 underline">
                    ↑ previous change
                  </a>
                )}
                {at < changes && (
                  <a href={`#change-${at + 1}`} className="text-brand-600 underline">
                    ↓ next change
                  </a>
                )}
              </nav>
            </header>
            <pre className="font-mono text-xs leading-5">
              {b.lines.map((l, j) => (
                <Line key={j} line={l} />
              ))}
            </pre>
          </section>
        );
      })}
    </div>
  );
}
