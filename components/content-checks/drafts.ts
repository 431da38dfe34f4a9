import { z } from "zod";
import { DEFAULT_ESCALATION, rungSchema, type Rung } from "@/lib/runs/client";

// What the checks and ladder editors hold while an operator types, and how it becomes the API's
// `checks` / `escalation` / caps. The server validates every field again (a CSS selector needs its HTML
// parser); here only what a form can say at once.

export type MatcherDraft = { kind: "text" | "selector"; value: string };
export type ChecksDraft = {
  minTextLength: string;
  mustContain: MatcherDraft[];
  mustNotContain: MatcherDraft[];
  detectBlocks: boolean;
};

const storedMatcher = z.object({ text: z.string().optional(), selector: z.string().optional() });
const storedChecks = z.object({
  minTextLength: z.number().optional(),
  mustContain: z.array(storedMatcher).optional(),
  mustNotContain: z.array(storedMatcher).optional(),
  detectBlocks: z.boolean().optional(),
});

const matcherDraft = (m: z.infer<typeof storedMatcher>): MatcherDraft =>
  m.selector !== undefined ? { kind: "selector", value: m.selector } : { kind: "text", value: m.text ?? "" };

/** A stored definition (or null: the default set) as the editor shows it. */
export function checksDraftOf(stored: unknown): ChecksDraft {
  const s = storedChecks.safeParse(stored ?? {});
  const c = s.success ? s.data : {};
  return {
    minTextLength: String(c.minTextLength ?? 1),
    mustContain: (c.mustContain ?? []).map(matcherDraft),
    mustNotContain: (c.mustNotContain ?? []).map(matcherDraft),
    detectBlocks: c.detectBlocks ?? true,
  };
}

const toMatcher = (m: MatcherDraft) => (m.kind === "selector" ? { selector: m.value } : { text: m.value });

/** The API's `checks`; a minimum length that is not a number is sent as typed so the server names it. */
export function checksOfDraft(d: ChecksDraft): Record<string, unknown> {
  const n = d.minTextLength.trim();
  return {
    minTextLength: /^\d+$/.test(n) ? Number(n) : n === "" ? 0 : n,
    mustContain: d.mustContain.map(toMatcher),
    mustNotContain: d.mustNotContain.map(toMatcher),
    detectBlocks: d.detectBlocks,
  };
}

/** A stored ladder (or null: the default) as rungs. */
export function ladderOf(stored: unknown): Rung[] {
  const s = z.array(rungSchema).min(1).safeParse(stored);
  return s.success ? s.data : DEFAULT_ESCALATION.map((r) => ({ ...r }));
}

/** A cap as typed: "" is no cap (null); anything but a whole number of 1 or more is invalid. */
export function capOf(text: string): { value: number | null; invalid: boolean } {
  const t = text.trim();
  if (t === "") return { value: null, invalid: false };
  if (!/^\d+$/.test(t) || Number(t) < 1) return { value: null, invalid: true };
  return { value: Number(t), invalid: false };
}
