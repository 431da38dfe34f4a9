// Bidirectional controls and other invisible characters let scraped text pose as something else
// ("txt.exe" shown for "exe.txt", a soft hyphen or a Hangul filler hiding inside a word). Shown as
// visible markers instead, wherever scraped text goes: C0/C1 controls (not tab, LF, CR), the soft hyphen,
// the Arabic letter mark, Hangul and Khmer fillers, Mongolian separators, zero-width characters and
// marks, the line and paragraph separators, bidi embeddings, overrides and isolates, the BOM,
// interlinear annotations and the tag characters U+E0000–E007F (hence the u flag).

const INVISIBLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB\u{1D173}-\u{1D17A}\u{E0000}-\u{E007F}]/gu;

/** The marker shown for an invisible character: ⟨U+202E⟩. */
export function markerOf(c: string): string {
  return `⟨U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}⟩`;
}

export function revealControls(text: string): string {
  return text.replace(INVISIBLE, markerOf);
}

/** The text cut into plain runs and markers, for pages that style the markers apart from the text. */
export function revealedParts(text: string): Array<{ text: string; marker: boolean }> {
  const parts: Array<{ text: string; marker: boolean }> = [];
  let last = 0;
  for (const m of text.matchAll(INVISIBLE)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index), marker: false });
    parts.push({ text: markerOf(m[0]), marker: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), marker: false });
  return parts;
}

/** How many invisible characters the text holds (a page warns above text that has any). */
export function countInvisible(text: string): number {
  return text.match(INVISIBLE)?.length ?? 0;
}
