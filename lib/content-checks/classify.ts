import { parsePage, type Page, type PageInput } from "./page";
import {
  CONSENT_CONTAINERS,
  CONSENT_WALL_TEXT,
  EMPTY_SHELL_SCRIPTS,
  EMPTY_SHELL_TEXT,
  MOUNT_POINTS,
  NOT_FOUND_CODE,
  NOT_FOUND_PHRASES,
  SIGNATURES,
  SMALL_PAGE_TEXT,
  type BlockKind,
  type Probe,
  type Signature,
} from "./signatures";

// The block-page detector (issue 39): every response is ok, blocked, not found or transient.
//
//   1. a vendor signature, at any size                            → blocked (rate_limited: transient)
//   2. the HTTP status: 429 → transient; 404, 410 → not found; 401, 403, 451 → blocked; 408, 425, 5xx → transient
//   3. a page cut off before its end (truncation.ts: an html document that
//      never closes, markdown that stops mid-structure or mid-sentence) → transient (truncated)
//   4. a generic signature, on a small page                       → blocked (rate_limited: transient)
//   5. a consent banner with almost nothing beside it             → blocked (consent_wall)
//   6. little visible text and many scripts, or no text at all    → blocked (empty_shell)
//   7. a not-found heading on a small page                        → not found (soft_404)
//   8. otherwise                                                  → ok

export const VERDICTS = ["ok", "blocked", "not_found", "transient"] as const;
export type Verdict = (typeof VERDICTS)[number];
export type ReasonKind = BlockKind | "soft_404" | "not_found" | "truncated" | "server_error";

export type Classification = {
  verdict: Verdict;
  /** Why, when not ok: the kind, the signature (or structural test) that decided, and a short excerpt of plain text. */
  reason?: { kind: ReasonKind; signature: string; excerpt: string };
  /** True when only a prefix of the page was inspected (see MAX_INPUT_CHARS, MAX_DEPTH). */
  partial: boolean;
};

export const EXCERPT_CHARS = 200;

/** Lower case, curly apostrophes straight: how phrases are compared. */
const fold = (s: string) => s.toLowerCase().replace(/[\u2018\u2019]/g, "'");

/** At most EXCERPT_CHARS of `text` around `at` (whole text when short), plain text, control characters out. */
export function excerptOf(text: string, at = 0): string {
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, " ");
  if (clean.length <= EXCERPT_CHARS) return clean;
  const start = Math.max(0, Math.min(at - 40, clean.length - EXCERPT_CHARS));
  const cut = clean.slice(start, start + EXCERPT_CHARS - 2);
  return `${start > 0 ? "…" : ""}${cut}${start + cut.length < clean.length ? "…" : ""}`.slice(0, EXCERPT_CHARS);
}

/** Where a probe matched (an index into the visible text, or -1 when it matched elsewhere), or null. */
function probe(page: Page, p: Probe, folded: { text: string; headings: string[] }): number | null {
  if ("selector" in p) return page.$ && page.$.root().find(p.selector).length > 0 ? -1 : null;
  if ("code" in p) return page.code.some((c) => c.includes(p.code)) ? -1 : null;
  if ("text" in p) {
    const at = folded.text.indexOf(p.text);
    return at >= 0 ? at : null;
  }
  if ("heading" in p) return folded.headings.some((h) => h.includes(p.heading)) ? -1 : null;
  if ("headingIs" in p) return folded.headings.some((h) => h === p.headingIs) ? -1 : null;
  const m = p.textPattern.exec(page.text);
  return m ? m.index : null;
}

function matches(page: Page, sig: Signature, folded: { text: string; headings: string[] }): number | null {
  let at = -1;
  for (const p of sig.all) {
    const found = probe(page, p, folded);
    if (found === null) return null;
    if (found >= 0 && at < 0) at = found;
  }
  if (sig.unless?.some((p) => probe(page, p, folded) !== null)) return null;
  return at;
}

/** An excerpt of what the reader would see: the text near the match, else the title and the start of the text. */
function excerptFor(page: Page, at: number): string {
  if (at >= 0) return excerptOf(page.text, at);
  const title = page.headings[0] ?? "";
  return excerptOf(title && !page.text.startsWith(title) ? `${title} · ${page.text}` : page.text);
}

const verdictOf = (kind: BlockKind): Verdict => (kind === "rate_limited" ? "transient" : "blocked");

type Reason = NonNullable<Classification["reason"]>;

/** What the HTTP status alone says, or null when it says nothing (2xx, 3xx, other 4xx, none). */
function fromStatus(page: Page): (Reason & { verdict: Verdict }) | null {
  const s = page.status;
  const excerpt = excerptFor(page, -1);
  if (s === 429) return { verdict: "transient", kind: "rate_limited", signature: "http-429", excerpt };
  if (s === 404 || s === 410) return { verdict: "not_found", kind: "not_found", signature: `http-${s}`, excerpt };
  if (s === 401 || s === 403 || s === 451)
    return { verdict: "blocked", kind: "access_denied", signature: `http-${s}`, excerpt };
  if (s === 408 || s === 425 || (s !== null && s >= 500 && s <= 599))
    return { verdict: "transient", kind: "server_error", signature: `http-${s}`, excerpt };
  return null;
}

/** Classifies an already parsed page (runChecks shares its parse). */
export function classifyPage(page: Page): Classification {
  const partial = page.partial;
  const folded = { text: fold(page.text), headings: page.headings.map(fold) };
  const found = (verdict: Verdict, kind: ReasonKind, signature: string, at = -1): Classification => ({
    verdict,
    reason: { kind, signature, excerpt: excerptFor(page, at) },
    partial,
  });

  if (page.$ === null && page.text === "") return found("blocked", "empty_shell", "empty-body");

  for (const sig of SIGNATURES) {
    if (sig.tier !== "vendor") continue;
    const at = matches(page, sig, folded);
    if (at !== null) return found(verdictOf(sig.kind), sig.kind, sig.name, at);
  }

  const status = fromStatus(page);
  if (status) {
    const { verdict, ...reason } = status;
    return { verdict, reason, partial };
  }

  if (page.truncated) return found("transient", "truncated", page.truncated, page.text.length);

  const small = page.mainText.length <= SMALL_PAGE_TEXT;
  if (small) {
    for (const sig of SIGNATURES) {
      if (sig.tier !== "generic") continue;
      const at = matches(page, sig, folded);
      if (at !== null) return found(verdictOf(sig.kind), sig.kind, sig.name, at);
    }
  }

  if (page.$) {
    const $ = page.$;
    const banner = $.root().find(CONSENT_CONTAINERS.join(", "));
    if (banner.length > 0 && page.mainText.length <= CONSENT_WALL_TEXT) {
      const bannerText = excerptOf(banner.first().text().replace(/\s+/g, " ").trim());
      return {
        verdict: "blocked",
        reason: { kind: "consent_wall", signature: "consent-banner-only", excerpt: bannerText },
        partial,
      };
    }
    if (page.text.length <= EMPTY_SHELL_TEXT) {
      const mount = $.root().find(MOUNT_POINTS).toArray();
      const emptyMount = mount.some((el) => $(el).text().trim() === "");
      const controls = $.root().find("input:not([type='hidden' i]), textarea, select, button").length;
      if (controls === 0 && (page.scripts >= EMPTY_SHELL_SCRIPTS || (page.scripts >= 1 && emptyMount)))
        return found("blocked", "empty_shell", "script-shell");
      if (page.text === "" && $.root().find("img, video, picture, canvas, embed, object, iframe").length === 0)
        return found("blocked", "empty_shell", "empty-body");
    }
  } else if (page.text.length <= EMPTY_SHELL_TEXT && page.text.replace(/[#*_>`\-\s]/g, "") === "") {
    return found("blocked", "empty_shell", "empty-body");
  }

  if (small) {
    const heading = folded.headings.find(
      (h) => NOT_FOUND_CODE.test(h) || NOT_FOUND_PHRASES.some((phrase) => h.includes(phrase)),
    );
    if (heading !== undefined) return found("not_found", "soft_404", "not-found-heading");
  }

  return { verdict: "ok", partial };
}

/** Classifies a response: ok, blocked, not found or transient, with the reason. */
export function classify(input: PageInput): Classification {
  return classifyPage(parsePage(input));
}
