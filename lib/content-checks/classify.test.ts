// The block-page detector on a corpus of pages written for it (lib/content-checks/fixtures/): every bad
// page detected with the right kind, no false positive on good pages that say the same words.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { classify, type ReasonKind, type Verdict } from "./classify";
import { MAX_DEPTH, MAX_INPUT_CHARS } from "./page";
import { SIGNATURES } from "./signatures";

const FIXTURES = path.join(import.meta.dirname, "fixtures");
const read = (dir: string, name: string) => readFileSync(path.join(FIXTURES, dir, name), "utf8");

type Expected = { verdict: Verdict; kind: ReasonKind; signature?: string; status?: number };
const BLOCKED: Record<string, Expected> = {
  "cloudflare-just-a-moment.html": { verdict: "blocked", kind: "captcha", signature: "cloudflare-challenge-options" },
  "akamai-access-denied.html": { verdict: "blocked", kind: "access_denied", signature: "akamai-reference" },
  "datadome-captcha.html": { verdict: "blocked", kind: "captcha", signature: "datadome-captcha" },
  "perimeterx-press-hold.html": { verdict: "blocked", kind: "captcha", signature: "perimeterx-app-id" },
  "incapsula-incident.html": { verdict: "blocked", kind: "access_denied", signature: "incapsula-block" },
  "google-sorry.html": { verdict: "blocked", kind: "captcha", signature: "google-sorry" },
  "cloudflare-1020.html": { verdict: "blocked", kind: "access_denied", signature: "cloudflare-firewall-block" },
  "consent-wall.html": { verdict: "blocked", kind: "consent_wall", signature: "consent-banner-only" },
  "too-many-requests.html": { verdict: "transient", kind: "rate_limited", signature: "too-many-requests" },
  "react-shell.html": { verdict: "blocked", kind: "empty_shell", signature: "script-shell" },
  "soft-404.html": { verdict: "not_found", kind: "soft_404", signature: "not-found-heading" },
};

describe("classify: the corpus", () => {
  it("has a file for every expectation and an expectation for every file", () => {
    expect(readdirSync(path.join(FIXTURES, "blocked")).sort()).toEqual(Object.keys(BLOCKED).sort());
  });

  for (const [name, want] of Object.entries(BLOCKED)) {
    it(`detects ${name} as ${want.verdict} (${want.kind}), with status 200 and with none`, () => {
      for (const status of [200, null]) {
        const got = classify({ html: read("blocked", name), status });
        expect(got.verdict, name).toBe(want.verdict);
        expect(got.reason?.kind, name).toBe(want.kind);
        if (want.signature) expect(got.reason?.signature, name).toBe(want.signature);
        expect(got.reason!.excerpt.length).toBeLessThanOrEqual(200);
        expect(got.reason!.excerpt).not.toMatch(/<[a-z!/]/i);
        expect(got.partial).toBe(false);
      }
    });
  }

  for (const name of readdirSync(path.join(FIXTURES, "good")).sort()) {
    it(`passes ${name} (a good page that says the same words)`, () => {
      expect(classify({ html: read("good", name), status: 200 })).toEqual({ verdict: "ok", partial: false });
      expect(classify({ html: read("good", name) })).toEqual({ verdict: "ok", partial: false });
    });
  }

  it("detects a good page cut off in transfer as transient (truncated), at any length", () => {
    const whole = read("good", "article-about-captchas.html");
    for (const share of [0.2, 0.6, 0.95]) {
      const got = classify({ html: whole.slice(0, Math.floor(whole.length * share)), status: 200 });
      expect(got.verdict).toBe("transient");
      expect(got.reason).toMatchObject({ kind: "truncated", signature: "no-end-of-document" });
    }
  });

  it("vendor fingerprints hold at any size, generic phrases only on small pages", () => {
    const filler = `<article>${"<p>A long article about something else entirely, with many words in it. </p>".repeat(200)}</article>`;
    const cf = read("blocked", "cloudflare-just-a-moment.html").replace("</body>", `${filler}</body>`);
    expect(classify({ html: cf }).reason?.signature).toBe("cloudflare-challenge-options");
    const tooMany = read("blocked", "too-many-requests.html").replace("</body>", `${filler}</body>`);
    expect(classify({ html: tooMany }).verdict).toBe("ok");
  });

  it("leaves CSS and scripts out of the size: a block message under 200 KB of inline CSS is still small", () => {
    const css = `<style>${".c{color:#123456;margin:0 auto;padding:4px}\n".repeat(5000)}</style>`;
    const html = `<!DOCTYPE html><html><head>${css}</head><body><h1>Whoa there, pardner!</h1><p>Your request has been blocked by network security.</p></body></html>`;
    expect(html.length).toBeGreaterThan(200_000);
    expect(classify({ html }).reason).toMatchObject({ kind: "access_denied", signature: "blocked-by-security" });
  });
});

describe("classify: statuses", () => {
  const page = read("good", "docs-http-404.html");
  it.each([
    [429, "transient", "rate_limited"],
    [404, "not_found", "not_found"],
    [410, "not_found", "not_found"],
    [403, "blocked", "access_denied"],
    [401, "blocked", "access_denied"],
    [503, "transient", "server_error"],
    [408, "transient", "server_error"],
  ] as const)("status %i → %s (%s)", (status, verdict, kind) => {
    const got = classify({ html: page, status });
    expect(got.verdict).toBe(verdict);
    expect(got.reason).toMatchObject({ kind, signature: `http-${status}` });
  });

  it("a vendor challenge answered with 403 or 503 is a captcha, not an access denial or a server error", () => {
    for (const status of [403, 503])
      expect(classify({ html: read("blocked", "cloudflare-just-a-moment.html"), status }).reason?.kind).toBe("captcha");
  });

  it("2xx and 3xx other than 200 say nothing on their own", () => {
    for (const status of [201, 204, 301]) expect(classify({ html: page, status }).verdict).toBe("ok");
  });
});

describe("classify: markdown only, empty pages", () => {
  it("reads markdown when there is no html: phrases apply, selectors cannot", () => {
    expect(classify({ markdown: "# Too Many Requests\n\nPlease try again later." }).reason?.kind).toBe("rate_limited");
    expect(classify({ markdown: "# Winter lentil soup\n\nServes six. Start with the base." }).verdict).toBe("ok");
  });

  it("reads a markdown page's # and ## lines as its headings: a soft 404 and a consent wall in markdown are found", () => {
    const soft =
      "# Oops! We can't find that page.\n\nThe page you were looking for may have moved. Try the [home page](/).";
    expect(classify({ markdown: soft })).toMatchObject({ verdict: "not_found", reason: { kind: "soft_404" } });
    const consent =
      "## Before you continue to example.com\n\nWe use cookies and data to deliver our services.\n\nAccept all";
    expect(classify({ markdown: consent }).reason?.kind).toBe("consent_wall");
    // A heading deeper than ##, or a phrase in running text, is not a heading.
    expect(classify({ markdown: "### Page not found\n\nA short note." }).verdict).toBe("ok");
    expect(classify({ markdown: "# Release notes\n\nWe fixed the page not found error on search." }).verdict).toBe(
      "ok",
    );
  });

  it("an empty body, or markdown of nothing but markup, is an empty shell", () => {
    expect(classify({ html: "", markdown: "" }).reason?.kind).toBe("empty_shell");
    expect(classify({ markdown: "  \n# \n---\n" }).reason?.kind).toBe("empty_shell");
    expect(classify({ html: "<html><body></body></html>" }).reason).toMatchObject({ signature: "empty-body" });
  });

  it("a small page of text with an image or a form is not empty", () => {
    expect(classify({ html: "<html><body><img src='/chart.png' alt=''></body></html>" }).verdict).toBe("ok");
    expect(classify({ html: "<html><body><p>OK</p></body></html>" }).verdict).toBe("ok");
  });
});

describe("classify: bounded", () => {
  it("checks a prefix of a page over MAX_INPUT_CHARS and says so", () => {
    const html = `<!DOCTYPE html><html><body><h1>Long</h1>${"<p>words and more words</p>".repeat(MAX_INPUT_CHARS / 25)}</body></html>`;
    expect(html.length).toBeGreaterThan(MAX_INPUT_CHARS);
    expect(classify({ html })).toEqual({ verdict: "ok", partial: true });
  });

  // No stopwatch here (one failed at 10.1 s on a loaded machine): the test's own timeout catches a parse
  // that runs away, as these did for half a minute before MAX_DEPTH.
  it("stops at MAX_DEPTH: 200,000 nested elements are judged on a partial parse", () => {
    for (const html of [
      "<div>".repeat(200_000) + "Just a moment",
      "<svg><foreignObject>" + "<div/>".repeat(200_000),
      "<div title='></div>'>".repeat(200_000),
    ]) {
      const got = classify({ html });
      expect(got.partial).toBe(true);
    }
    expect(MAX_DEPTH).toBeGreaterThanOrEqual(256);
  });
});

describe("signatures", () => {
  it("have unique names, a tier and at least one probe each; every one is listed in docs/content-checks.md", () => {
    const names = SIGNATURES.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    for (const s of SIGNATURES) expect(s.all.length).toBeGreaterThan(0);
    const doc = readFileSync(path.join(import.meta.dirname, "../../docs/content-checks.md"), "utf8");
    expect(names.filter((n) => !doc.includes(`\`${n}\``))).toEqual([]);
  });
});
