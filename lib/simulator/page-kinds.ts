import "server-only";
import type { SimConfig } from "./config";
import type { PageContent } from "./content";
import { hashUnit } from "./rng";

// The content knobs (issue 39): a 200 that is not the page. Which page a URL gets is a pure function of
// (seed, URL, the request's options), so a test or a bench can ask GET /_sim/content?url= what the
// simulator served and what it would serve under each option set, and get the same answer every time.
//
//   blockPageRate            share of HOSTS (sticky per host) whose plain fetch answers a block page
//   residentialUnblockShare  of those hosts, the share that `proxy.type: residential` gets through
//   softNotFoundRate         share of URLs answering a "page not found" page with status 200, whatever the options
//   emptyShellRate           share of URLs whose page needs `render_js` (else an empty JavaScript shell)
//   truncatedRate            share of URLs cut short unless `wait_config` lets the page finish loading
//   hostilePageRate          share of URLs (sticky per URL) answering a page built to be costly to judge
//                            (HOSTILE_STYLES below); a real page all the same, with text, whatever the options
//
// "Plain" routing is a request without `proxy.type` (the platform picks); only an explicit
// `proxy.type: residential` counts as residential here. A blocked host beats everything; then a soft 404,
// an empty shell, a cut page. Every kind is a completed item with http status 200, charged as a page.

export type PageKind = "good" | "block" | "empty_shell" | "soft_404" | "truncated" | "hostile";
export type BlockStyle = "cloudflare_challenge" | "access_denied" | "captcha" | "consent_wall" | "google_sorry";
const BLOCK_STYLES: readonly BlockStyle[] = [
  "cloudflare_challenge",
  "access_denied",
  "captcha",
  "consent_wall",
  "google_sorry",
];

/** Pages whose cost to parse or to match a selector on is what a stranger chose (issue 47). */
export type HostileStyle = "deep_nesting" | "sibling_run" | "many_elements" | "many_attributes" | "near_limit";
export const HOSTILE_STYLES: readonly HostileStyle[] = [
  "deep_nesting",
  "sibling_run",
  "many_elements",
  "many_attributes",
  "near_limit",
];
const HOSTILE_WHY: Record<HostileStyle, string> = {
  deep_nesting: "a 3 MB page of blocks nested 509 deep, over and over",
  sibling_run: "40,000 <p> siblings in one run (h2~p tries every pair)",
  many_elements: "200,000 <span> elements",
  many_attributes: "300,000 attributes on 300 elements",
  near_limit: "ordinary paragraphs up to just under the 3 MB input limit",
};

export type FetchOptions = { renderJs: boolean; waitConfig: boolean; proxyType: string | null };
export type Served = { kind: PageKind; style?: BlockStyle | HostileStyle; why: string };

/** The option sets an escalation ladder tries, by name (what /_sim/content answers for). */
export const OPTION_SETS: Record<string, FetchOptions> = {
  plain: { renderJs: false, waitConfig: false, proxyType: null },
  render_js: { renderJs: true, waitConfig: false, proxyType: null },
  render_js_wait: { renderJs: true, waitConfig: true, proxyType: null },
  residential: { renderJs: false, waitConfig: false, proxyType: "residential" },
  render_js_residential: { renderJs: true, waitConfig: true, proxyType: "residential" },
};

type Knobs = Pick<
  SimConfig,
  | "seed"
  | "blockPageRate"
  | "residentialUnblockShare"
  | "emptyShellRate"
  | "softNotFoundRate"
  | "truncatedRate"
  | "hostilePageRate"
>;

const hostOf = (url: string): string => {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
};

/** The request's options as the platform reads them: wait_config switches rendering on. */
export function fetchOptions(request: {
  render_js?: boolean | null;
  wait_config?: unknown;
  proxy?: { type?: string | null } | null;
}): FetchOptions {
  const waitConfig = request.wait_config !== undefined && request.wait_config !== null;
  return { renderJs: request.render_js === true || waitConfig, waitConfig, proxyType: request.proxy?.type ?? null };
}

/** What a URL's fetch with `opts` answers, and why. */
export function servedKind(k: Knobs, url: string, opts: FetchOptions): Served {
  const host = hostOf(url);
  if (k.blockPageRate > 0 && hashUnit(k.seed, "block-host:" + host) < k.blockPageRate) {
    const style = BLOCK_STYLES[Math.floor(hashUnit(k.seed, "block-style:" + host) * BLOCK_STYLES.length)];
    const unblockable = hashUnit(k.seed, "unblock:" + host) < k.residentialUnblockShare;
    if (!(unblockable && opts.proxyType === "residential"))
      return {
        kind: "block",
        style,
        why: unblockable
          ? `host ${host} blocks this routing (${style}); proxy.type residential gets through`
          : `host ${host} blocks every routing (${style})`,
      };
  }
  if (k.hostilePageRate > 0 && hashUnit(k.seed, "hostile-page:" + url) < k.hostilePageRate) {
    const style = HOSTILE_STYLES[Math.floor(hashUnit(k.seed, "hostile-style:" + url) * HOSTILE_STYLES.length)];
    return { kind: "hostile", style, why: HOSTILE_WHY[style] };
  }
  if (k.softNotFoundRate > 0 && hashUnit(k.seed, "soft-404:" + url) < k.softNotFoundRate)
    return { kind: "soft_404", why: "the page is gone: a not-found page with status 200, whatever the options" };
  if (k.emptyShellRate > 0 && hashUnit(k.seed, "empty-shell:" + url) < k.emptyShellRate && !opts.renderJs)
    return { kind: "empty_shell", why: "the page is built by JavaScript: an empty shell without render_js" };
  // An empty-shell URL is never also cut short: each bad page has one cause.
  const shell = k.emptyShellRate > 0 && hashUnit(k.seed, "empty-shell:" + url) < k.emptyShellRate;
  if (!shell && k.truncatedRate > 0 && hashUnit(k.seed, "truncated:" + url) < k.truncatedRate && !opts.waitConfig)
    return { kind: "truncated", why: "the page loads slowly: cut short without wait_config" };
  return { kind: "good", why: "the page" };
}

/** Tokens a completed page costs with these options (the knobs pageTokens and renderTokens). */
export const tokensFor = (cfg: Pick<SimConfig, "pageTokens" | "renderTokens">, opts: FetchOptions): number =>
  opts.renderJs ? cfg.renderTokens : cfg.pageTokens;

/** What /_sim/content answers per named option set. */
export function servedPerOptionSet(k: Knobs, url: string): Record<string, Served> {
  return Object.fromEntries(Object.entries(OPTION_SETS).map(([name, o]) => [name, servedKind(k, url, o)]));
}

// Block pages modelled on the public ones the detector was written from (lib/content-checks/signatures.ts).
function blockHtml(style: BlockStyle, host: string, ref: string): { html: string; markdown: string } {
  switch (style) {
    case "cloudflare_challenge":
      return {
        html: `<!doctype html><html lang="en-US"><head><title>Just a moment...</title><meta name="robots" content="noindex,nofollow"></head><body class="no-js"><div class="main-wrapper" role="main"><div class="main-content"><h1 class="zone-name-title h1">${host}</h1><h2 id="challenge-running" class="h2">Checking if the site connection is secure</h2><noscript><div id="challenge-error-title">Enable JavaScript and cookies to continue</div></noscript><div id="challenge-body-text" class="core-msg spacer">${host} needs to review the security of your connection before proceeding.</div><form id="challenge-form" action="/?__cf_chl_f_tk=${ref}" method="POST"></form></div></div><div class="footer" role="contentinfo">Ray ID: <code>${ref}</code> Performance &amp; security by Cloudflare</div><script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=${ref}"></script></body></html>`,
        markdown: `# ${host}\n\n## Checking if the site connection is secure\n\n${host} needs to review the security of your connection before proceeding.\n\nRay ID: ${ref}\n\nPerformance & security by Cloudflare`,
      };
    case "access_denied":
      return {
        html: `<HTML><HEAD>\n<TITLE>Access Denied</TITLE>\n</HEAD><BODY>\n<H1>Access Denied</H1>\n \nYou don't have permission to access "http&#58;&#47;&#47;${host}&#47;" on this server.<P>\nReference&#32;&#35;18&#46;${ref}\n<P>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18&#46;${ref}</P>\n</BODY>\n</HTML>`,
        markdown: `# Access Denied\n\nYou don't have permission to access "http://${host}/" on this server.\n\nReference #18.${ref}`,
      };
    case "captcha":
      // Cloudflare's Turnstile managed challenge (the interstitial that replaced "Just a moment" pages).
      return {
        html: `<!DOCTYPE html><html lang="en-US"><head><title>${host}</title><meta name="robots" content="noindex,nofollow"></head><body><div class="main-wrapper" role="main"><div class="main-content"><h1 class="zone-name-title h1">${host}</h1><p class="h2 spacer-bottom">Verify you are human by completing the action below.</p><div id="turnstile-wrapper" class="cf-turnstile"></div><div class="core-msg spacer spacer-top">${host} needs to review the security of your connection before proceeding.</div></div></div><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=${ref}"></script></body></html>`,
        markdown: `# ${host}\n\nVerify you are human by completing the action below.\n\n${host} needs to review the security of your connection before proceeding.`,
      };
    case "consent_wall":
      return {
        html: `<!doctype html><html lang="en"><head><title>Before you continue</title></head><body><div id="consent-banner" class="cookie-consent" role="dialog" aria-label="Cookie consent"><h2>Before you continue to ${host}</h2><p>We use cookies and data to deliver and maintain our services. If you choose to Accept all, we will also use cookies and data to develop and improve new services and personalise content and ads.</p><button>Reject all</button><button>Accept all</button><a href="/privacy">More options</a></div></body></html>`,
        markdown: `## Before you continue to ${host}\n\nWe use cookies and data to deliver and maintain our services. If you choose to Accept all, we will also use cookies and data to develop and improve new services and personalise content and ads.\n\nReject all Accept all More options`,
      };
    case "google_sorry":
      return {
        html: `<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"><title>https://${host}/</title></head><body style="font-family: arial, sans-serif; background-color: #fff; color: #000; padding:20px; font-size:18px;"><div style="max-width:400px;"><hr noshade size="1" style="color:#ccc; background-color:#ccc;"><br><form id="captcha-form" action="index" method="post"><script src="https://www.google.com/recaptcha/api.js" async defer></script><div id="recaptcha" class="g-recaptcha" data-sitekey="6LfwuyUTAAAAAOAmoS0fdqijC2PbbdH4kjq62Y1b"></div><input type='hidden' name='q' value='${ref}'></form><hr noshade size="1" style="color:#ccc; background-color:#ccc;"><div style="font-size:13px;"><b>About this page</b><br><br>Our systems have detected unusual traffic from your computer network. This page checks to see if it's really you sending the requests, and not a robot.<br><br>IP address: 203.0.113.7<br>Time: 2026-12-05T10:00:00Z<br>URL: https://${host}/</div></div></body></html>`,
        markdown: `**About this page**\n\nOur systems have detected unusual traffic from your computer network. This page checks to see if it's really you sending the requests, and not a robot.`,
      };
  }
}

const SHELL_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Store</title><script defer="defer" src="/static/js/runtime.8d2c4e1a.js"></script><script defer="defer" src="/static/js/vendors.3f9a2b7c.js"></script><script defer="defer" src="/static/js/main.5b8e1d0f.js"></script><link href="/static/css/main.a1b2c3d4.css" rel="stylesheet"></head><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div><script>window.__INITIAL_STATE__={locale:"en",flags:{}}</script><script src="/static/js/chunk-1.js"></script><script src="/static/js/chunk-2.js"></script></body></html>`;

const soft404 = (host: string) => ({
  html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page Not Found | ${host}</title></head><body><header><a href="/" class="logo">${host}</a><nav><a href="/a">Products</a> <a href="/b">Sale</a></nav></header><main><h1>Oops! We can't find that page.</h1><p>The page you were looking for may have moved or no longer exists. Try searching, or head back to the <a href="/">home page</a>.</p></main><footer>© 2026 ${host}</footer></body></html>`,
  markdown: `# Oops! We can't find that page.\n\nThe page you were looking for may have moved or no longer exists. Try searching, or head back to the [home page](/).`,
});

const INPUT_LIMIT = 3_000_000;

/** Repeats `unit` as many whole times as fit in `chars` between `head` and `tail`. */
const fill = (head: string, unit: string, tail: string, chars: number) =>
  head + unit.repeat(Math.max(1, Math.floor((chars - head.length - tail.length) / unit.length))) + tail;

/** A hostile page of `style`: valid HTML with visible text, at most the 3 MB input limit. */
export function hostilePageHtml(style: HostileStyle, host: string): { html: string; markdown: string } {
  const head = `<!doctype html><html><head><title>${host}</title></head><body><h1>${host}</h1>`;
  const tail = "</body></html>";
  const text = `# ${host}\n\nA page built to be costly to judge.`;
  switch (style) {
    case "deep_nesting": {
      const nest = `${"<div>".repeat(509)}deep${"</div>".repeat(509)}`;
      return { html: fill(head, nest, tail, INPUT_LIMIT - 1_000), markdown: text };
    }
    case "sibling_run":
      return {
        html: `${head.replace(`<h1>${host}</h1>`, "")}<div>${"<p>x</p>".repeat(40_000)}</div>${tail}`,
        markdown: text,
      };
    case "many_elements":
      return { html: `${head}${"<span>x</span>".repeat(200_000)}${tail}`, markdown: text };
    case "many_attributes": {
      const attrs = Array.from({ length: 1_000 }, (_, i) => ` a${i}="v"`).join("");
      return { html: `${head}${`<p${attrs}>x</p>`.repeat(300)}${tail}`, markdown: text };
    }
    case "near_limit": {
      const para = "<p>Plain words in an ordinary paragraph, repeated to fill the page.</p>\n";
      return { html: fill(head, para, tail, INPUT_LIMIT - 1_000), markdown: text };
    }
  }
}

/** The body of a non-good serving, in the formats asked; `good` is what `real` already holds. */
export function servedContent(
  seed: number,
  url: string,
  served: Served,
  real: () => PageContent,
  formats: readonly string[],
): PageContent {
  if (served.kind === "good") return real();
  const host = hostOf(url);
  const ref = Math.floor(hashUnit(seed, "ref:" + url) * 0xffffffff)
    .toString(16)
    .padStart(8, "0");
  const pick = (p: { html: string; markdown: string }, links: string[] | null): PageContent => ({
    markdown: formats.includes("markdown") ? p.markdown : null,
    html: formats.includes("html") ? p.html : null,
    links,
  });
  if (served.kind === "block") return pick(blockHtml((served.style as BlockStyle) ?? "access_denied", host, ref), null);
  if (served.kind === "empty_shell") return pick({ html: SHELL_HTML, markdown: "" }, null);
  if (served.kind === "soft_404") return pick(soft404(host), null);
  if (served.kind === "hostile") return pick(hostilePageHtml(served.style as HostileStyle, host), null);
  // truncated: the real page cut in its first third, mid-document (no closing tags).
  const page = real();
  const cut = (s: string | null) => (s === null ? null : s.slice(0, Math.max(1, Math.floor(s.length / 3))));
  return { markdown: cut(page.markdown), html: cut(page.html), links: page.links };
}
