// The parse caps (issue 47 item 3, lib/content-checks/page.ts): pages in the shapes real sites have, at
// the large end of each kind (fixtures/shapes.ts: a news article, a shop's category page, a docs page,
// an app's shell, a deep forum thread, a list of 5,000 rows), are parsed whole and judged as before;
// pages built past a cap are parsed up to it, say which cap, and never hold a tag in part. And a
// fragment of many elements with nothing around them is parsed inside a container: css-select walks a
// document's top level by shifting an array, 7 s a selector at 100,000 elements (here without a stopwatch:
// the file's time-out catches the quadratic walk, about two minutes for the default checks).
import { describe, expect, it } from "vitest";
import { SHAPES } from "./fixtures/shapes";
import { boundedHtmlLength, MAX_ATTRIBUTES, MAX_DEPTH, MAX_ELEMENTS, parsePage } from "./page";
import { runChecks } from "./run-checks";
import { DEFAULT_CHECKS } from "./schema";

describe("the parse caps", () => {
  it.each(Object.entries(SHAPES))("parse the whole of a real page's shape: %s", (_, make) => {
    const html = make();
    const page = parsePage({ html, markdown: null, status: 200 });
    expect(page).toMatchObject({ partial: false, cut: null });
    expect(runChecks(DEFAULT_CHECKS, { html, markdown: null, status: 200 })).toEqual({ ok: true, partial: false });
  });

  it("stop at the deepest nesting, the most elements and the most attributes, each named, no tag in part", () => {
    const cases = [
      { cut: "depth", html: ("<div>".repeat(MAX_DEPTH + 44) + "x" + "</div>".repeat(MAX_DEPTH + 44)).repeat(100) },
      { cut: "elements", html: "<html><body>" + "<b>x</b>".repeat(MAX_ELEMENTS + 5_000) + "</body></html>" },
      {
        cut: "attributes",
        html: `<i ${Array.from({ length: 10 }, (_, k) => `a${k}="v"`).join(" ")}>x</i>`.repeat(
          MAX_ATTRIBUTES / 10 + 500,
        ),
      },
    ] as const;
    for (const c of cases) {
      const bounded = boundedHtmlLength(c.html);
      expect(bounded.cut, c.cut).toBe(c.cut);
      expect(bounded.length).toBeLessThan(c.html.length);
      // The prefix ends just before a tag opens.
      expect(c.html.slice(bounded.length, bounded.length + 1)).toBe("<");
      expect(parsePage({ html: c.html, markdown: null, status: 200 })).toMatchObject({ partial: true, cut: c.cut });
    }
  });

  it("judge a fragment of 100,000 top-level elements as quickly as the same inside a body", () => {
    const html = "<b>word</b>".repeat(100_000);
    const page = parsePage({ html, markdown: null, status: 200 });
    expect(page.partial).toBe(false);
    expect(page.text.length).toBe(100_000 * 4);
    expect(runChecks(DEFAULT_CHECKS, { html, markdown: null, status: 200 })).toMatchObject({ ok: true });
  }, 60_000);
});
