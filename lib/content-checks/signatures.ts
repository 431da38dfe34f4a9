// The block-page detector's signatures, all in one file (issue 39). Each says what it looks for, what
// kind of page it means, its tier, and (in its comment) the public example or project it was written
// from. docs/content-checks.md lists them; a test keeps the two in step.
//
// Tiers:
// - vendor: a fingerprint only the vendor's block page carries (an element, a script's code or URL,
//   or a vendor's element together with its phrase). Trusted on a page of any size.
// - generic: words a block page says ("Access denied", "Just a moment") that a real page may say too
//   (an article about captchas, a forum post quoting an error). Trusted only on a small page: main text
//   (outside navigation, header, footer, aside and consent banners) of at most SMALL_PAGE_TEXT characters.
//
// Probes never run a regular expression on markup: a selector is evaluated by the HTML parser, `code`
// is a plain substring of a script's code or of a script's, iframe's, form's or meta refresh's URL (read
// from the parsed page), and `text`, `heading` and `textPattern` look at visible text only.
//
// Learnt from (read, not copied): Crawlee's RETRY_CSS_SELECTORS (apify/crawlee
// packages/utils/src/internals/blocked.ts) and crawl4ai's tiers (unclecode/crawl4ai
// crawl4ai/antibot_detector.py). Where they trust a signal that real pages also carry, this file does
// not: Crawlee retries on any iframe from challenges.cloudflare.com, which is also how a Turnstile widget
// on a sign-up form renders; crawl4ai trusts `_Incapsula_Resource` anywhere, which Incapsula injects as
// a script into the normal pages of the sites it protects, and a `g-recaptcha` element on small pages,
// which a small login form has. Here the first is no probe at all, the second only as the block page's
// iframe, and a captcha widget counts only together with a challenge phrase on a page without a form of
// its own.

export const BLOCK_KINDS = ["captcha", "access_denied", "consent_wall", "rate_limited", "empty_shell"] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];

export type Probe =
  /** A CSS selector that matches an element of the page. */
  | { selector: string }
  /** A substring (case-sensitive) of an inline script's code, or of a script's, iframe's, form's or meta refresh's URL. */
  | { code: string }
  /** A phrase in the visible text (case-insensitive, whitespace collapsed). */
  | { text: string }
  /** A phrase in the title, an h1 or an h2 (case-insensitive). */
  | { heading: string }
  /** The title or an h1 is exactly this phrase (case-insensitive, whitespace collapsed). */
  | { headingIs: string }
  /** A pattern over the visible text (never over markup). */
  | { textPattern: RegExp };

export type Signature = {
  /** Stable name: shown as the reason's `signature`, listed in docs/content-checks.md. */
  name: string;
  kind: BlockKind;
  tier: "vendor" | "generic";
  /** Every probe must match … */
  all: Probe[];
  /** … and none of these. */
  unless?: Probe[];
};

/** A form of the page's own (a password, an email, a message): a login or contact page, not a challenge. */
const OWN_FORM: Probe = { selector: "input[type='password' i], input[type='email' i], textarea" };

/** Main text (characters) at or under which a page is small: generic signatures and soft 404s apply. */
export const SMALL_PAGE_TEXT = 1500;
/** A consent banner with at most this much main text beside it is a consent wall. */
export const CONSENT_WALL_TEXT = 300;
/** An empty shell: at most this much visible text … */
export const EMPTY_SHELL_TEXT = 200;
/** … and at least this many scripts (or one script and an empty mount point, MOUNT_POINTS). */
export const EMPTY_SHELL_SCRIPTS = 3;

const CAPTCHA_WIDGETS =
  ".g-recaptcha, .h-captcha, .cf-turnstile, iframe[src*='recaptcha'], iframe[src*='hcaptcha.com'], #captcha, #captcha-form";

export const SIGNATURES: readonly Signature[] = [
  // ── vendor tier ────────────────────────────────────────────────────────────────────────────────────
  // Cloudflare's challenge page ("Just a moment...") defines window._cf_chl_opt and posts its form to
  // ?__cf_chl_f_tk=…; its script loads /cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1. Seen on
  // any Cloudflare-protected site under "I'm Under Attack" mode; crawl4ai's tier 1 "Cloudflare challenge
  // form" and "Cloudflare JS challenge". Normal Cloudflare pages load /cdn-cgi/challenge-platform/scripts/jsd
  // (bot detection) but never `_chl_` or `orchestrate`, so neither is a probe on its own here.
  { name: "cloudflare-challenge-options", kind: "captcha", tier: "vendor", all: [{ code: "_cf_chl_opt" }] },
  { name: "cloudflare-challenge-token", kind: "captcha", tier: "vendor", all: [{ code: "__cf_chl_" }] },
  {
    name: "cloudflare-challenge-orchestrate",
    kind: "captcha",
    tier: "vendor",
    all: [{ code: "/cdn-cgi/challenge-platform/" }, { code: "/orchestrate/" }],
  },
  // Cloudflare's firewall pages: error 1020 "Sorry, you have been blocked" and 1015 "You are being rate
  // limited", both inside <div id="cf-error-details"> (crawl4ai tier 1 "Cloudflare firewall block").
  {
    name: "cloudflare-firewall-block",
    kind: "access_denied",
    tier: "vendor",
    all: [{ selector: "#cf-error-details" }, { text: "you have been blocked" }],
  },
  {
    name: "cloudflare-rate-limited",
    kind: "rate_limited",
    tier: "vendor",
    all: [{ selector: "#cf-error-details" }, { text: "rate limited" }],
  },
  // Akamai's edge denial: <h1>Access Denied</h1> … "Reference #18.2d351ab8.1557333295.a4e16ab" (the
  // example in crawl4ai's tier 1 comment). The reference number's shape is Akamai's; with the heading it
  // is trusted at any size, alone only on small pages (a forum post may quote one).
  {
    name: "akamai-reference",
    kind: "access_denied",
    tier: "vendor",
    all: [{ headingIs: "access denied" }, { textPattern: /reference\s?#\s?\d+\.[0-9a-f]+\.\d+\.[0-9a-f]+/i }],
  },
  // DataDome's captcha page: var dd={…,'host':'geo.captcha-delivery.com'} and an iframe from
  // https://geo.captcha-delivery.com/captcha/ (crawl4ai tier 1 "DataDome captcha"). Protected pages load
  // js.datadome.co/tags.js instead, never captcha-delivery.com.
  { name: "datadome-captcha", kind: "captcha", tier: "vendor", all: [{ code: "captcha-delivery.com" }] },
  // PerimeterX / HUMAN's block page: window._pxAppId = '…', a <div id="px-captcha"> and its script from
  // captcha.px-cdn.net ("Press & Hold to confirm you are a human (and not a bot)"); crawl4ai tier 1.
  { name: "perimeterx-app-id", kind: "captcha", tier: "vendor", all: [{ code: "_pxAppId" }] },
  { name: "perimeterx-captcha", kind: "captcha", tier: "vendor", all: [{ selector: "#px-captcha" }] },
  { name: "perimeterx-captcha-cdn", kind: "captcha", tier: "vendor", all: [{ code: "captcha.px-cdn.net" }] },
  // Imperva / Incapsula's block page: <iframe id="main-iframe" src="/_Incapsula_Resource?CWUDNSAI=…">
  // with "Request unsuccessful. Incapsula incident ID: …" (crawl4ai tier 1). Only the iframe: the script
  // /_Incapsula_Resource?SWJIYLWA=… is on the normal pages of protected sites too (generic below).
  {
    name: "incapsula-block",
    kind: "access_denied",
    tier: "vendor",
    all: [{ selector: "iframe[src*='_Incapsula_Resource']" }],
  },
  // Google's "sorry" page (google.com/sorry/index, "Our systems have detected unusual traffic from your
  // computer network"): Crawlee's RETRY_CSS_SELECTORS entry.
  {
    name: "google-sorry",
    kind: "captcha",
    tier: "vendor",
    all: [{ selector: "div#infoDiv0 a[href*='//www.google.com/policies/terms/']" }],
  },

  // ── generic tier: small pages only ──────────────────────────────────────────────────────────────────
  // Cloudflare's interstitial title and text (crawl4ai tier 2 "Cloudflare interstitial", "browser
  // check"; the managed challenge's "… needs to review the security of your connection before
  // proceeding"). Crawlee's iframe[src^="https://challenges.cloudflare.com"] is not a probe here: a
  // Turnstile widget on a sign-up form renders the same iframe.
  { name: "just-a-moment", kind: "captcha", tier: "generic", all: [{ heading: "just a moment" }] },
  { name: "checking-your-browser", kind: "captcha", tier: "generic", all: [{ text: "checking your browser" }] },
  {
    name: "review-connection-security",
    kind: "captcha",
    tier: "generic",
    all: [{ text: "review the security of your connection" }],
  },
  // Challenge phrases; not on a page with a form of its own (a login page asking to verify is a login page).
  {
    name: "verify-human",
    kind: "captcha",
    tier: "generic",
    all: [{ text: "verify you are human" }],
    unless: [OWN_FORM],
  },
  {
    name: "verifying-human",
    kind: "captcha",
    tier: "generic",
    all: [{ text: "verifying you are human" }],
    unless: [OWN_FORM],
  },
  // A captcha widget counts only with a challenge phrase and without a form of the page's own: a login
  // form embeds the same widget (crawl4ai's tier 2 trusts `g-recaptcha` alone on pages under 10 KB).
  {
    name: "captcha-widget-robot",
    kind: "captcha",
    tier: "generic",
    all: [{ selector: CAPTCHA_WIDGETS }, { text: "not a robot" }],
    unless: [OWN_FORM],
  },
  // Google's sorry page's words (see google-sorry).
  {
    name: "unusual-traffic",
    kind: "captcha",
    tier: "generic",
    all: [{ text: "unusual traffic from your computer network" }],
  },
  // PerimeterX / HUMAN's words (crawl4ai tier 2 "PerimeterX block page").
  { name: "press-and-hold", kind: "captcha", tier: "generic", all: [{ text: "press & hold" }] },
  {
    name: "page-has-been-blocked",
    kind: "access_denied",
    tier: "generic",
    all: [{ text: "access to this page has been blocked" }],
  },
  // Akamai/Distil's "Pardon Our Interruption" (crawl4ai tier 1; here prose, so generic).
  { name: "pardon-our-interruption", kind: "captcha", tier: "generic", all: [{ text: "pardon our interruption" }] },
  // Kasada's challenge page sets KPSDK.scriptStart = KPSDK.now() (crawl4ai tier 1); its SDK is also on
  // the normal pages of protected sites, so generic.
  { name: "kasada-challenge", kind: "captcha", tier: "generic", all: [{ code: "KPSDK.scriptStart" }] },
  // Incapsula's words (see incapsula-block; its injected script is on small real pages too, so no probe).
  { name: "incapsula-incident", kind: "access_denied", tier: "generic", all: [{ text: "incapsula incident id" }] },
  { name: "request-unsuccessful", kind: "access_denied", tier: "generic", all: [{ text: "request unsuccessful" }] },
  // Akamai's reference number alone (see akamai-reference).
  {
    name: "akamai-reference-text",
    kind: "access_denied",
    tier: "generic",
    all: [{ textPattern: /reference\s?#\s?\d+\.[0-9a-f]+\.\d+\.[0-9a-f]+/i }],
  },
  // Generic denials (crawl4ai tier 2 "Access Denied on short page", "Blocked by security"; Sucuri's
  // firewall page title; Reddit's "blocked by network security", crawl4ai tier 1, buried under inline CSS
  // that the main text leaves out).
  { name: "access-denied", kind: "access_denied", tier: "generic", all: [{ heading: "access denied" }] },
  { name: "forbidden", kind: "access_denied", tier: "generic", all: [{ heading: "403 forbidden" }] },
  {
    name: "no-permission",
    kind: "access_denied",
    tier: "generic",
    all: [{ text: "you don't have permission to access" }],
  },
  { name: "you-have-been-blocked", kind: "access_denied", tier: "generic", all: [{ text: "you have been blocked" }] },
  {
    name: "blocked-by-security",
    kind: "access_denied",
    tier: "generic",
    all: [{ text: "blocked by network security" }],
  },
  { name: "sucuri-firewall", kind: "access_denied", tier: "generic", all: [{ text: "sucuri website firewall" }] },
  // Rate limits: HTTP 429 pages' words, Cloudflare 1015's words without its markup.
  { name: "too-many-requests", kind: "rate_limited", tier: "generic", all: [{ text: "too many requests" }] },
  { name: "rate-limit-exceeded", kind: "rate_limited", tier: "generic", all: [{ text: "rate limit exceeded" }] },
  { name: "being-rate-limited", kind: "rate_limited", tier: "generic", all: [{ text: "you are being rate limited" }] },
  // Google's consent interstitial ("Before you continue to Google", consent.google.com).
  { name: "google-consent", kind: "consent_wall", tier: "generic", all: [{ heading: "before you continue" }] },
];

// Consent managers' containers: a page whose main text beside them is tiny is a consent wall. Each is the
// root element the vendor's script renders its banner into (their public integration docs):
// OneTrust, Cookiebot, Usercentrics, Didomi, Quantcast Choice, Sourcepoint, TrustArc, Google Funding
// Choices, Osano's cookieconsent, consentmanager.net, CookieYes / Cookie Law Info.
export const CONSENT_CONTAINERS: readonly string[] = [
  "#onetrust-consent-sdk",
  "#onetrust-banner-sdk",
  "#CybotCookiebotDialog",
  "#usercentrics-root",
  "#didomi-host",
  ".qc-cmp2-container",
  "[id^='sp_message_container']",
  "#truste-consent-track",
  ".fc-consent-root",
  ".cc-window",
  "#cmpbox",
  "#cookie-law-info-bar",
  ".cky-consent-container",
];

// Mount points of single-page apps (create-react-app's <div id="root">, Vue's #app, Next's #__next,
// Gatsby's #___gatsby): empty with scripts beside them, the page is a JavaScript shell (crawl4ai tier 3
// "script_heavy_shell"; here measured on visible text, not bytes).
export const MOUNT_POINTS = "#root, #app, #__next, #___gatsby, [data-reactroot], app-root";

// A soft 404: a 200 whose title, h1 or h2 says the page is not there, on a small page (a documentation
// page about HTTP 404 says so too, at length).
export const NOT_FOUND_PHRASES: readonly string[] = [
  "page not found",
  "not found",
  "page does not exist",
  "page doesn't exist",
  "page cannot be found",
  "page could not be found",
  "page you requested",
  "no longer available",
  "nothing was found",
  "we can't find",
  "we couldn't find",
];
/** A heading that starts with 404 or "Error 404" ("404", "404 - Oops", "Error 404 | Shop"); not "Route 404". */
export const NOT_FOUND_CODE = /^(error\s?)?404\b/;
