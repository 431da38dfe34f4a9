// The checks definition (its schema, errors naming their field, the default set) and runChecks on pages.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runChecks } from "./run-checks";
import { DEFAULT_CHECKS, parseChecks, type Checks } from "./schema";

const read = (dir: string, name: string) => readFileSync(path.join(import.meta.dirname, "fixtures", dir, name), "utf8");
const checks = (input: unknown): Checks => {
  const parsed = parseChecks(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.checks;
};
const problems = (input: unknown) => {
  const parsed = parseChecks(input);
  return parsed.ok ? [] : parsed.problems;
};

describe("the checks definition", () => {
  it("is the default set when left out or empty", () => {
    expect(parseChecks(undefined)).toEqual({ ok: true, checks: DEFAULT_CHECKS });
    expect(checks({})).toEqual({ minTextLength: 1, mustContain: [], mustNotContain: [], detectBlocks: true });
    expect(checks({ detectBlocks: false, minTextLength: 500 })).toMatchObject({
      detectBlocks: false,
      minTextLength: 500,
    });
  });

  it("accepts phrases and selectors, trimmed", () => {
    expect(checks({ mustContain: [{ text: "  Add to cart " }, { selector: "article h1" }] }).mustContain).toEqual([
      { text: "Add to cart" },
      { selector: "article h1" },
    ]);
  });

  it.each([
    [{ minTextLength: -1 }, "minTextLength", "must be 0 or more"],
    [{ minTextLength: 1.5 }, "minTextLength", "must be a whole number"],
    [{ minTextLength: "10" }, "minTextLength", "must be a number"],
    [{ mustContain: [{ text: "" }] }, "mustContain.0.text", "must not be empty"],
    [{ mustContain: [{ text: "   " }] }, "mustContain.0.text", "must not be empty"],
    [
      { mustNotContain: [{ text: "ok" }, { selector: "div[" }] },
      "mustNotContain.1.selector",
      "not a valid CSS selector",
    ],
    [{ mustNotContain: [{ selector: "p::before" }] }, "mustNotContain.0.selector", "Pseudo-elements"],
    [{ mustContain: [{ selector: "div >" }] }, "mustContain.0.selector", "ends with a combinator"],
    [{ mustContain: [{ selector: "<script>" }] }, "mustContain.0.selector", "markup, not a selector"],
    [{ mustContain: [{ selector: "p:unknown" }] }, "mustContain.0.selector", "not a valid CSS selector"],
    [{ mustContain: [{ text: "a", selector: "p" }] }, "mustContain.0", "exactly one of text or selector"],
    [{ mustContain: [{}] }, "mustContain.0", "exactly one of text or selector"],
    [{ mustContain: [{ regex: "a.*" }] }, "mustContain.0", ""],
    [{ mustContain: "price" }, "mustContain", "must be a list"],
    [{ mustContain: Array.from({ length: 21 }, () => ({ text: "x" })) }, "mustContain", "at most 20"],
    [{ detectBlocks: "yes" }, "detectBlocks", "must be true or false"],
    [{ minLength: 3 }, "", ""],
    [[], "", "checks must be an object"],
  ])("%j → an error at %s", (input, at, message) => {
    const found = problems(input);
    expect(found.length, JSON.stringify(found)).toBeGreaterThan(0);
    expect(
      found.some((p) => p.path === at && p.message.includes(message)),
      JSON.stringify(found),
    ).toBe(true);
  });
});

describe("runChecks", () => {
  const article = read("good", "cookie-banner-with-content.html");

  it("passes a good page with the default set", () => {
    expect(runChecks(DEFAULT_CHECKS, { html: article, status: 200 })).toEqual({ ok: true, partial: false });
  });

  it("fails detectBlocks with the detector's answer and a plain-text excerpt", () => {
    const got = runChecks(DEFAULT_CHECKS, { html: read("blocked", "akamai-access-denied.html") });
    expect(got).toMatchObject({
      ok: false,
      check: "detectBlocks",
      classification: { verdict: "blocked", reason: { kind: "access_denied", signature: "akamai-reference" } },
    });
    if (got.ok) throw new Error("expected a failure");
    expect(got.excerpt).toContain("Reference #18.2d351ab8");
    expect(got.excerpt).not.toMatch(/[<>]/);
  });

  it("fails minTextLength with the length and the start of the text", () => {
    const got = runChecks(checks({ minTextLength: 5000 }), { html: article });
    expect(got).toMatchObject({ ok: false, check: "minTextLength" });
    if (!got.ok) expect(got.excerpt).toMatch(/^\d+ characters of text: /);
  });

  it("mustContain: a phrase (case and spacing folded) or a selector must be there", () => {
    expect(
      runChecks(checks({ mustContain: [{ text: "BEST   overall" }, { selector: "article h1" }] }), { html: article })
        .ok,
    ).toBe(true);
    expect(
      runChecks(checks({ mustContain: [{ text: "best overall" }, { text: "Add to cart" }] }), { html: article }),
    ).toMatchObject({
      ok: false,
      check: "mustContain[1]",
    });
    expect(runChecks(checks({ mustContain: [{ selector: ".price" }] }), { html: article })).toMatchObject({
      ok: false,
      check: "mustContain[0]",
    });
  });

  it("mustContain ignores text inside scripts, styles and templates", () => {
    const html =
      "<html><body><p>Visible words here.</p><script>var price = 42</script><template>price</template></body></html>";
    expect(runChecks(checks({ mustContain: [{ text: "price" }] }), { html })).toMatchObject({
      ok: false,
      check: "mustContain[0]",
    });
  });

  it("mustNotContain: an excerpt around the phrase, or the matched element's text, never markup", () => {
    const byText = runChecks(checks({ mustNotContain: [{ text: "rock plate" }] }), { html: article });
    expect(byText).toMatchObject({ ok: false, check: "mustNotContain[0]" });
    if (!byText.ok) {
      expect(byText.excerpt).toContain("rock plate");
      expect(byText.excerpt.length).toBeLessThanOrEqual(200);
    }
    const bySelector = runChecks(checks({ mustNotContain: [{ selector: "#CybotCookiebotDialog" }] }), {
      html: article,
    });
    expect(bySelector).toMatchObject({ ok: false, check: "mustNotContain[0]" });
    if (!bySelector.ok) {
      expect(bySelector.excerpt).toMatch(/^1 element matches; the first \(div\) reads: This website uses cookies/);
      expect(bySelector.excerpt).not.toMatch(/[<>]/);
    }
  });

  it("a selector on a page with markdown only: mustContain fails and says why, mustNotContain passes", () => {
    const page = { markdown: "# Winter lentil soup\n\nServes six." };
    expect(runChecks(checks({ mustContain: [{ selector: "h1" }] }), page)).toMatchObject({
      ok: false,
      check: "mustContain[0]",
      excerpt: "the page has no html to evaluate a selector on",
    });
    expect(runChecks(checks({ mustNotContain: [{ selector: "h1" }] }), page).ok).toBe(true);
    expect(runChecks(checks({ mustContain: [{ text: "serves SIX" }] }), page).ok).toBe(true);
  });

  it("with detectBlocks off, a block page is judged by the other checks alone", () => {
    const html = read("blocked", "too-many-requests.html");
    expect(runChecks(checks({ detectBlocks: false }), { html }).ok).toBe(true);
  });
});
