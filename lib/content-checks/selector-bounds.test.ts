import { describe, expect, it } from "vitest";
import { parseChecks } from "./schema";
import { selectorCostProblem } from "./selector-bounds";

// The selectors a user may save (issue 47): anything whose cost can grow as a power of the page is
// refused with the field and the reason; ordinary selectors pass.

const refusedAt = (selector: string) => {
  const r = parseChecks({ mustNotContain: [{ text: "x" }, { selector }] });
  return r.ok ? null : r.problems;
};

describe("selector bounds at save", () => {
  it.each([
    ["q~p~p~p~p~p", /5 sibling combinators/],
    ["h1 + p ~ p + p", /3 sibling combinators/],
    ["div:has(p ~ p)", /:has\(\) holds a combinator/],
    ["li:not(.a > .b)", /:not\(\) holds a combinator/],
    ["p:is(div p)", /:is\(\) holds a combinator/],
    ["section:has(:not(div p))", /:has\(\) holds a combinator/],
    ["a b c d e f g", /joins 7 compound selectors/],
    [Array.from({ length: 11 }, (_, i) => `.c${i}`).join(", "), /lists 11 selectors/],
  ])("refuses %s, naming the field and why", (selector, why) => {
    const problems = refusedAt(selector);
    expect(problems).toHaveLength(1);
    expect(problems?.[0].path).toBe("mustNotContain.1.selector");
    expect(problems?.[0].message).toMatch(/^too costly to evaluate: the selector /);
    expect(problems?.[0].message).toMatch(why);
  });

  it.each([
    "h2~p",
    "h1 + p ~ p",
    "article h1",
    "main > div.price",
    "#CybotCookiebotDialog",
    "div:has(.price)",
    "li:not(.ad)",
    "form[action*='captcha' i]",
    "p:contains('Add to cart')",
    "html body main article section p",
    ".a, .b, .c",
  ])("accepts %s", (selector) => {
    expect(selectorCostProblem(selector)).toBeNull();
    expect(refusedAt(selector)).toBeNull();
  });

  it("a selector that does not parse is reported as invalid, not as costly", () => {
    expect(refusedAt("p ~~ ")?.[0].message).toMatch(/^not a valid CSS selector/);
  });
});
