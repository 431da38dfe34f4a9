// Content checks (issue 39): what a stored page must satisfy to count as usable, and the block-page
// detector. Pure: no database, no network. Other folders import it from here.

export {
  checksSchema,
  matcherSchema,
  parseChecks,
  storedChecks,
  withDefaults,
  DEFAULT_CHECKS,
  MAX_MATCHERS,
  type Checks,
  type ChecksInput,
  type ChecksProblem,
  type Matcher,
} from "./schema";
export { classify, classifyPage, VERDICTS, type Classification, type Verdict, type ReasonKind } from "./classify";
export { runChecks, type CheckResult } from "./run-checks";
export { parsePage, MAX_INPUT_CHARS, MAX_DEPTH, type Page, type PageInput } from "./page";
export { BLOCK_KINDS, SIGNATURES, type BlockKind, type Signature } from "./signatures";
