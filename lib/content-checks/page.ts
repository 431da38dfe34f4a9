import { load, type CheerioAPI } from "cheerio";
import type { AnyNode } from "domhandler";
import { Parser } from "htmlparser2";
import { CONSENT_CONTAINERS } from "./signatures";
import { htmlTruncation, markdownTruncation, type Truncation } from "./truncation";

// One page made ready for the checks and the detector: parsed once with htmlparser2 (through cheerio),
// its visible text, its main text, its headings and its scripts. Bounded, so a hostile page cannot stall
// the process: at most MAX_INPUT_CHARS are parsed, and parsing stops where elements nest deeper than
// MAX_DEPTH (the parser's cost grows with the depth of every element it opens: 200,000 nested <div>s
// take it half a minute), past MAX_ELEMENTS elements or past MAX_ATTRIBUTES attributes (the caps'
// figures: docs/content-checks.md, "Limits"). Either way only a prefix is checked, `partial` says so
// and `cut` says why.

/** The most characters of html (and of markdown) inspected; beyond it a prefix is checked. */
export const MAX_INPUT_CHARS = 3_000_000;
/** The deepest nesting parsed; the rest of a page nested deeper is not inspected. */
export const MAX_DEPTH = 256;
/** The most elements parsed; the rest of a page with more is not inspected. */
export const MAX_ELEMENTS = 100_000;
/** The most attributes parsed, on all elements together. */
export const MAX_ATTRIBUTES = 200_000;
/** Past this many elements at the top level (no <html>, <body> around them) a page is parsed inside a container. */
const MAX_TOP_LEVEL = 1_000;
/** The most characters of inline script code kept for the detector's fingerprints. */
const MAX_CODE_CHARS = 500_000;

export type PageInput = { html?: string | null; markdown?: string | null; status?: number | null };

export type Page = {
  /** The parsed html; null when the page has markdown only. */
  $: CheerioAPI | null;
  /** Visible text: the body's text without script, style, noscript, template and head, whitespace collapsed. */
  text: string;
  /** The visible text outside navigation, header, footer, aside and consent banners. */
  mainText: string;
  /** The title, the h1s and the h2s, each whitespace-collapsed. */
  headings: string[];
  /** How many script elements the html has. */
  scripts: number;
  /** Inline script code and the URLs of scripts, iframes, forms and meta refreshes: where vendor fingerprints live. */
  code: string[];
  /** True when only a prefix of the input was inspected (size or depth). */
  partial: boolean;
  /** Which cap cut the html short, or null (markdown: "chars" past MAX_INPUT_CHARS). */
  cut: ParseCut | null;
  /** Why the page looks cut short in transfer (lib/content-checks/truncation.ts), or null. */
  truncated: Truncation | null;
  status: number | null;
};

/** Elements whose content is never visible text. */
const INVISIBLE = new Set(["script", "style", "noscript", "template", "head", "title", "iframe", "object"]);
/** Page furniture: left out of the main text. */
const FURNITURE = new Set(["nav", "header", "footer", "aside"]);
/** Elements that separate words (text on either side of them is not one word). */
const BREAKS = new Set(
  "address article aside blockquote br dd div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section table tbody td tfoot th thead tr ul option button label".split(
    " ",
  ),
);

export const collapse = (s: string) => s.replace(/\s+/g, " ").trim();

/** Which cap cut a page's html short (the prefix before it is what is checked). */
export type ParseCut = "chars" | "depth" | "elements" | "attributes";

/**
 * The length of the prefix of `html` within the caps (htmlparser2's view, the same parser cheerio then
 * builds the tree with): elements nested at most MAX_DEPTH deep, at most MAX_ELEMENTS elements and
 * MAX_ATTRIBUTES attributes; and which cap ended it, or null for the whole. A pass of the tokenizer
 * only, no tree: linear in the input and cheap next to the parse it bounds.
 */
export function boundedHtmlLength(html: string): { length: number; cut: ParseCut | null; topLevel: number } {
  let depth = 0;
  let topLevel = 0;
  let elements = 0;
  let attributes = 0;
  let length = html.length;
  let cut: ParseCut | null = null;
  const stop = (why: ParseCut) => {
    if (cut !== null) return;
    cut = why;
    length = parser.startIndex;
    parser.pause();
  };
  const parser: Parser = new Parser(
    {
      onattribute() {
        attributes += 1;
      },
      // Judged at the tag's end, where startIndex is the tag's start: the prefix holds no tag in part.
      onopentag() {
        depth += 1;
        elements += 1;
        if (depth === 1) topLevel += 1;
        if (depth > MAX_DEPTH) stop("depth");
        else if (elements > MAX_ELEMENTS) stop("elements");
        else if (attributes > MAX_ATTRIBUTES) stop("attributes");
      },
      onclosetag() {
        depth -= 1;
      },
    },
    { xmlMode: false },
  );
  parser.end(html);
  return { length, cut, topLevel };
}

/** The text of `nodes`, skipping elements `skip` says to; iterative, so no depth can overflow the stack. */
export function textOf(nodes: readonly AnyNode[], skip: (node: AnyNode) => boolean = () => false): string {
  const out: string[] = [];
  const stack: AnyNode[] = [...nodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === "text") {
      out.push(node.data);
      continue;
    }
    if (!("children" in node) || !("name" in node)) continue;
    if (INVISIBLE.has(node.name) || skip(node)) continue;
    const br = BREAKS.has(node.name);
    if (br) out.push(" ");
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return collapse(out.join(""));
}

/** A markdown page's level-1 and level-2 ATX headings (`# …`, `## …`): what title, h1 and h2 are to html. */
function markdownHeadings(md: string): string[] {
  const out: string[] = [];
  for (const m of md.matchAll(/^ {0,3}#{1,2}[ \t]+(.+?)[ \t#]*$/gm)) {
    const h = collapse(m[1]);
    if (h !== "") out.push(h);
    if (out.length >= 50) break;
  }
  return out;
}

export function parsePage(input: PageInput): Page {
  const status = input.status ?? null;
  const rawHtml = input.html ?? "";
  if (rawHtml.trim() === "") {
    const md = input.markdown ?? "";
    const text = collapse(md.slice(0, MAX_INPUT_CHARS));
    return {
      $: null,
      text,
      mainText: text,
      headings: markdownHeadings(md.slice(0, MAX_INPUT_CHARS)),
      scripts: 0,
      code: [],
      partial: md.length > MAX_INPUT_CHARS,
      cut: md.length > MAX_INPUT_CHARS ? "chars" : null,
      truncated: markdownTruncation(md),
      status,
    };
  }
  const sized = rawHtml.slice(0, MAX_INPUT_CHARS);
  const bounded = boundedHtmlLength(sized);
  const html = sized.slice(0, bounded.length);
  // css-select walks the document's top level by shifting an array: a fragment of 100,000 elements
  // with no <html> or <body> around them takes 7 s per selector (quadratic), when inside one element
  // the same selector takes 12 ms. Such a fragment is parsed inside a container.
  const source = bounded.topLevel > MAX_TOP_LEVEL ? `<div>${html}</div>` : html;
  const $ = load(source, { xml: { xmlMode: false, decodeEntities: true } });
  const root = $.root().children().toArray();
  const consent = new Set<AnyNode>($.root().find(CONSENT_CONTAINERS.join(", ")).toArray());
  const text = textOf(root);
  const mainText = textOf(
    root,
    (n) => consent.has(n) || ("attribs" in n && (FURNITURE.has(n.name) || n.attribs.role === "navigation")),
  );
  const headings = $.root()
    .find("title, h1, h2")
    .toArray()
    .map((el) => (el.name === "title" ? collapse($(el).text()) : textOf([el])))
    .filter((h) => h !== "");
  const code: string[] = [];
  let codeChars = 0;
  for (const el of $.root().find("script").toArray()) {
    const src = el.attribs.src;
    const chunk = src ?? $(el).text();
    if (codeChars + chunk.length > MAX_CODE_CHARS) break;
    codeChars += chunk.length;
    code.push(chunk);
  }
  for (const el of $.root().find("iframe[src], form[action], meta[http-equiv='refresh' i]").toArray()) {
    code.push(el.attribs.src ?? el.attribs.action ?? el.attribs.content ?? "");
  }
  return {
    $,
    text,
    mainText,
    headings,
    scripts: $.root().find("script").length,
    code,
    partial: html.length < rawHtml.length,
    cut: bounded.cut ?? (sized.length < rawHtml.length ? "chars" : null),
    truncated: htmlTruncation(rawHtml),
    status,
  };
}

/** Why `selector` cannot be used as a check (css-select's message), or null. */
export function selectorProblem(selector: string): string | null {
  const s = selector.trim();
  if (s.startsWith("<")) return "markup, not a selector";
  if (/[>+~,]$/.test(s)) return "ends with a combinator";
  try {
    load("<p></p>", { xml: { xmlMode: false } })
      .root()
      .find(s);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
