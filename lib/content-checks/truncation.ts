// A page cut short in transfer (issue 39), judged on the end of its structure, never on its size: an
// html document that never closes, or a markdown page whose last block stops mid-structure or
// mid-sentence. The simulator's `truncatedRate` pages are a real page cut in its first third
// (lib/simulator/page-kinds.ts); a real page ends with a closed structure or a finished sentence.
//
// Markdown has no end tag, so its tests look at the last block (after the last blank line):
//   1. a fenced code block opened and never closed                          (unclosed-fence)
//   2. an inline structure opened on the last line and never closed: a link or image's [text] or
//      (url), an html tag's <…>, ** emphasis or a `code span`                  (unclosed-inline)
//   3. prose that stops mid-sentence: the last block is a paragraph (no heading, list, table, quote,
//      html or link line), it ends in a letter, digit or comma, its last words are mostly lower case
//      (not a menu or a footer's row of names), and either they are many (MIDSENTENCE_WORDS) or the
//      page shows it ends its sentences (a finished sentence before them, in the block or in an
//      earlier paragraph) and they are at least a few (MIDSENTENCE_MIN_WORDS)      (cut-mid-sentence)
// A page cut exactly between two blocks reads as a whole page: no test can tell, and none claims to.

/** The most characters at the end of a page the tests read. */
const TAIL_CHARS = 4096;
/** Unpunctuated words that are a sentence cut short on any page. */
export const MIDSENTENCE_WORDS = 12;
/**
 * Unpunctuated words that are a sentence cut short on a page that otherwise ends its sentences. Fewer
 * are what whole pages end with: "Back to top", "All rights reserved", "Posted by maria on monday".
 * A good page flagged here climbs every rung and ends `failed` though it was whole, which is worse than
 * storing a page cut short, so the bar sits above them (the simulator's cut pages found: 72 % at 6
 * words, 83 % at 4, 87 % at 3).
 */
export const MIDSENTENCE_MIN_WORDS = 6;

export type Truncation = "no-end-of-document" | "unclosed-fence" | "unclosed-inline" | "cut-mid-sentence";

/** An html document (it opens with a doctype or <html>) that ends before its </body> or </html>. */
export function htmlTruncation(html: string): Truncation | null {
  const head = html.slice(0, 1024).trimStart().toLowerCase();
  if (!head.startsWith("<!doctype html") && !head.startsWith("<html")) return null;
  const tail = html.slice(-TAIL_CHARS).toLowerCase();
  return !tail.includes("</html") && !tail.includes("</body") ? "no-end-of-document" : null;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** Block starts that are not prose: heading, list, quote, table, html, fence, link or image line, rule. */
const NOT_PROSE = /^ {0,3}(#|[-*+] |\d{1,9}[.)] |>|\||<|`{3}|~{3}|!?\[|[-*_]{3,}\s*$)/;
const SENTENCE_END = /[.!?…:;]["'”’)\]*_]*$/;

function fenceOpen(md: string): boolean {
  let open: string | null = null;
  for (const line of md.split("\n")) {
    const m = FENCE.exec(line);
    if (!m) continue;
    const mark = m[1];
    if (open === null) open = mark;
    else if (mark[0] === open[0] && mark.length >= open.length) open = null;
  }
  return open !== null;
}

function unclosedInline(line: string): boolean {
  const lastOpen = line.lastIndexOf("[");
  if (lastOpen > line.lastIndexOf("]")) return true;
  const link = line.lastIndexOf("](");
  if (link >= 0 && line.indexOf(")", link) < 0) return true;
  if (/<[a-z][^>]*$/i.test(line)) return true;
  if ((line.match(/\*\*/g)?.length ?? 0) % 2 === 1) return true;
  return (line.match(/`/g)?.length ?? 0) % 2 === 1;
}

const words = (s: string) => s.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
const mostlyLower = (ws: string[]) => ws.filter((w) => /^[^\p{L}]*\p{Ll}/u.test(w)).length * 2 > ws.length;

/** Why a markdown page looks cut short, or null. Bounded: fences are counted over the whole page, the rest reads its end. */
export function markdownTruncation(markdown: string): Truncation | null {
  const md = markdown.replace(/\r\n?/g, "\n").trimEnd();
  if (md === "") return null;
  if (fenceOpen(md)) return "unclosed-fence";
  const tail = md.slice(-TAIL_CHARS);
  const blocks = tail.split(/\n[ \t]*\n/).filter((b) => b.trim() !== "");
  const last = blocks[blocks.length - 1] ?? "";
  const lines = last.split("\n");
  const lastLine = lines[lines.length - 1] ?? "";
  // A closed code block's last line is its fence: nothing inline to judge.
  if (FENCE.test(lastLine)) return null;
  if (unclosedInline(lastLine)) return "unclosed-inline";
  if (NOT_PROSE.test(lines[0] ?? "") || NOT_PROSE.test(lastLine)) return null;
  const text = last.replace(/\s+/g, " ").trim();
  if (!/[\p{L}\p{N},]$/u.test(text)) return null;
  // The unfinished sentence: what follows the block's last finished one.
  const sentences = text.split(/(?<=[.!?…])\s+/);
  const fragment = words(sentences[sentences.length - 1] ?? "");
  if (!mostlyLower(fragment)) return null;
  if (fragment.length >= MIDSENTENCE_WORDS) return "cut-mid-sentence";
  const endsSentences =
    sentences.length > 1 ||
    blocks.slice(0, -1).some((b) => !NOT_PROSE.test(b.trimStart()) && SENTENCE_END.test(b.trim()));
  return endsSentences && fragment.length >= MIDSENTENCE_MIN_WORDS ? "cut-mid-sentence" : null;
}
