import { z } from "zod";
import { selectorProblem } from "./page";
import { selectorCostProblem } from "./selector-bounds";

// The `checks` definition runs and collections accept (issue 39): what a stored page must satisfy to be
// usable. Every field is optional; what is left out takes the default set (DEFAULT_CHECKS). Errors name
// their field (path `mustContain.0.selector`, `minTextLength`, …) so an API layer can answer a 400 that
// says which one.

/** At most this many phrases or selectors in each of mustContain and mustNotContain. */
export const MAX_MATCHERS = 20;
export const MAX_PHRASE_LENGTH = 200;
export const MAX_SELECTOR_LENGTH = 300;
export const MAX_MIN_TEXT_LENGTH = 1_000_000;

const phrase = z
  .string({ error: "must be a string" })
  .trim()
  .min(1, { error: "must not be empty" })
  .max(MAX_PHRASE_LENGTH, { error: `must be at most ${MAX_PHRASE_LENGTH} characters` });

const selector = z
  .string({ error: "must be a string" })
  .trim()
  .min(1, { error: "must not be empty" })
  .max(MAX_SELECTOR_LENGTH, { error: `must be at most ${MAX_SELECTOR_LENGTH} characters` })
  .check((ctx) => {
    const problem = selectorProblem(ctx.value);
    if (problem) {
      ctx.issues.push({ code: "custom", input: ctx.value, message: `not a valid CSS selector: ${problem}` });
      return;
    }
    const cost = selectorCostProblem(ctx.value);
    if (cost)
      ctx.issues.push({ code: "custom", input: ctx.value, message: `too costly to evaluate: the selector ${cost}` });
  });

/** One thing to look for: a plain-text phrase (in the page's visible text) or a CSS selector (on its html). */
export const matcherSchema = z
  .strictObject({ text: phrase.optional(), selector: selector.optional() }, { error: "must be an object" })
  .check((ctx) => {
    const given = (ctx.value.text === undefined ? 0 : 1) + (ctx.value.selector === undefined ? 0 : 1);
    if (given !== 1)
      ctx.issues.push({ code: "custom", input: ctx.value, message: "give exactly one of text or selector" });
  });
export type Matcher = { text: string; selector?: undefined } | { selector: string; text?: undefined };

const matchers = z
  .array(matcherSchema, { error: "must be a list of {text} or {selector}" })
  .max(MAX_MATCHERS, { error: `at most ${MAX_MATCHERS} entries` });

/** The checks' definition as an API or a form sends it; every field optional. */
export const checksSchema = z.strictObject(
  {
    minTextLength: z
      .number({ error: "must be a number" })
      .int({ error: "must be a whole number" })
      .min(0, { error: "must be 0 or more" })
      .max(MAX_MIN_TEXT_LENGTH, { error: `must be at most ${MAX_MIN_TEXT_LENGTH}` })
      .optional(),
    mustContain: matchers.optional(),
    mustNotContain: matchers.optional(),
    detectBlocks: z.boolean({ error: "must be true or false" }).optional(),
  },
  { error: "checks must be an object" },
);
export type ChecksInput = z.input<typeof checksSchema>;

/** A definition with every field present: what runChecks takes. */
export type Checks = {
  minTextLength: number;
  mustContain: Matcher[];
  mustNotContain: Matcher[];
  detectBlocks: boolean;
};

/** The default set, on for every run and collection that says nothing: a page has some visible text and is no block page. */
export const DEFAULT_CHECKS: Readonly<Checks> = Object.freeze({
  minTextLength: 1,
  mustContain: [],
  mustNotContain: [],
  detectBlocks: true,
});

/** A parsed definition with the default set filled in where a field is left out. */
export function withDefaults(input: z.output<typeof checksSchema> | undefined): Checks {
  return {
    minTextLength: input?.minTextLength ?? DEFAULT_CHECKS.minTextLength,
    mustContain: (input?.mustContain ?? DEFAULT_CHECKS.mustContain) as Matcher[],
    mustNotContain: (input?.mustNotContain ?? DEFAULT_CHECKS.mustNotContain) as Matcher[],
    detectBlocks: input?.detectBlocks ?? DEFAULT_CHECKS.detectBlocks,
  };
}

export type ChecksProblem = { path: string; message: string };

/** Parses a definition (undefined → the default set); on failure, each problem with its field's path. */
export function parseChecks(input: unknown): { ok: true; checks: Checks } | { ok: false; problems: ChecksProblem[] } {
  if (input === undefined) return { ok: true, checks: withDefaults(undefined) };
  const parsed = checksSchema.safeParse(input);
  if (parsed.success) return { ok: true, checks: withDefaults(parsed.data) };
  return {
    ok: false,
    problems: parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })),
  };
}

/**
 * A run's or collection's stored definition (JSON text, or null) as runChecks takes it: the default set
 * where there is none, or where it no longer parses (a later release tightened the schema).
 */
export function storedChecks(json: string | null | undefined): Checks {
  let input: unknown = undefined;
  try {
    input = json ? JSON.parse(json) : undefined;
  } catch {
    input = undefined;
  }
  const parsed = parseChecks(input);
  return parsed.ok ? parsed.checks : withDefaults(undefined);
}
