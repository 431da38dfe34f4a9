import { Notice } from "@/components/ui/feedback";
import { MAX_DIFF_CHARS, MAX_DIFF_EDITS, MAX_DIFF_LINES, type DiffCut } from "@/lib/collections";

const n = (x: number) => x.toLocaleString("en-US");

const WHY: Record<DiffCut, string> = {
  chars: `A version is longer than ${n(MAX_DIFF_CHARS)} characters: the diff compares the start of each.`,
  lines: `The versions differ over more than ${n(MAX_DIFF_LINES)} lines: the diff compares the first ${n(MAX_DIFF_LINES)} lines of the part that differs, and leaves out the rest.`,
  edits: `The versions differ in more than ${n(MAX_DIFF_EDITS)} lines, too many to align: the part that differs is shown whole, its old lines (-) and then its new ones (+).`,
  stopped:
    "Comparing the versions took longer or needed more memory than a page's judging may (TALLY_JUDGE_BUDGET_MS, TALLY_JUDGE_MEMORY_MB): no lines are shown. Open each version on its job's page.",
};

/** What the page says above a diff that is cut, and above text with invisible characters. */
export function DiffNotices({ cut, invisible }: { cut: readonly DiffCut[]; invisible: number }) {
  return (
    <>
      {cut.length > 0 && (
        <Notice tone="warn">
          <p className="font-medium">This diff is cut.</p>
          <ul className="mt-1 list-disc pl-5" data-testid="diff-cut">
            {cut.map((c) => (
              <li key={c}>{WHY[c]}</li>
            ))}
          </ul>
        </Notice>
      )}
      {invisible > 0 && (
        <Notice tone="warn">
          <span data-testid="diff-invisible">
            This diff holds {n(invisible)} invisible or bidirectional character{invisible === 1 ? "" : "s"} (which can
            make text read differently from what it is), shown escaped on amber, like{" "}
            <span className="rounded-sm bg-amber-200 px-0.5 font-mono text-amber-950">⟨U+202E⟩</span>.
          </span>
        </Notice>
      )}
    </>
  );
}
