"use client";

import { Button } from "@/components/ui/button";
import type { ChecksDraft, MatcherDraft } from "./drafts";

// The content checks of a run or collection: what a stored page must satisfy to count as usable. A
// problem the server names (`checks.mustContain.0.selector`, …) shows next to its field.

const MAX_MATCHERS = 20;
const input = "rounded border border-slate-300 px-2 py-1 text-sm";

export type ProblemOf = (path: string) => string | undefined;

function Matchers({
  label,
  hint,
  name,
  list,
  onChange,
  problem,
}: {
  label: string;
  hint: string;
  name: "mustContain" | "mustNotContain";
  list: MatcherDraft[];
  onChange: (l: MatcherDraft[]) => void;
  problem: ProblemOf;
}) {
  const set = (i: number, m: Partial<MatcherDraft>) => onChange(list.map((x, j) => (j === i ? { ...x, ...m } : x)));
  return (
    <fieldset className="min-w-0 space-y-2">
      <legend className="text-sm font-medium">
        {label} <span className="font-normal text-slate-500">({hint})</span>
      </legend>
      {list.length === 0 && <p className="text-sm text-slate-500">None.</p>}
      {list.map((m, i) => {
        const p = problem(`checks.${name}.${i}.${m.kind}`) ?? problem(`checks.${name}.${i}`);
        return (
          <div key={i} className="space-y-1">
            <div className="flex flex-wrap items-center gap-2">
              <select
                aria-label={`${label} ${i + 1}: kind`}
                className={input}
                value={m.kind}
                onChange={(e) => set(i, { kind: e.target.value === "selector" ? "selector" : "text" })}
              >
                <option value="text">text</option>
                <option value="selector">CSS selector</option>
              </select>
              <input
                aria-label={`${label} ${i + 1}`}
                aria-invalid={p !== undefined}
                className={`${input} min-w-0 flex-1 basis-48 font-mono`}
                value={m.value}
                placeholder={m.kind === "selector" ? "main .price" : "In stock"}
                onChange={(e) => set(i, { value: e.target.value })}
              />
              <Button variant="ghost" onClick={() => onChange(list.filter((_, j) => j !== i))}>
                Remove
              </Button>
            </div>
            {p && <p className="text-sm text-red-700">{p}</p>}
          </div>
        );
      })}
      {list.length < MAX_MATCHERS && (
        <Button variant="secondary" onClick={() => onChange([...list, { kind: "text", value: "" }])}>
          Add to “{label}”
        </Button>
      )}
      {problem(`checks.${name}`) && <p className="text-sm text-red-700">{problem(`checks.${name}`)}</p>}
    </fieldset>
  );
}

export function ChecksEditor({
  value,
  onChange,
  problem,
}: {
  value: ChecksDraft;
  onChange: (d: ChecksDraft) => void;
  problem: ProblemOf;
}) {
  const minProblem = problem("checks.minTextLength");
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-start gap-x-6 gap-y-3">
        <label className="block text-sm">
          <span className="font-medium">Minimum text length</span>{" "}
          <span className="text-slate-500">(characters of visible text)</span>
          <input
            className={`${input} mt-1 block w-32 tabular-nums`}
            inputMode="numeric"
            aria-invalid={minProblem !== undefined}
            value={value.minTextLength}
            onChange={(e) => onChange({ ...value, minTextLength: e.target.value })}
          />
          {minProblem && <span className="mt-1 block text-red-700">{minProblem}</span>}
        </label>
        <label className="flex min-w-0 flex-1 basis-64 items-start gap-2 text-sm sm:pt-6">
          <input
            type="checkbox"
            className="mt-1"
            checked={value.detectBlocks}
            onChange={(e) => onChange({ ...value, detectBlocks: e.target.checked })}
          />
          <span>
            Block-page detector{" "}
            <span className="text-slate-500">(captcha, access denied, consent wall, empty shell, soft 404)</span>
          </span>
        </label>
      </div>
      <Matchers
        label="Must contain"
        hint="each one, or the page is suspect"
        name="mustContain"
        list={value.mustContain}
        onChange={(l) => onChange({ ...value, mustContain: l })}
        problem={problem}
      />
      <Matchers
        label="Must not contain"
        hint="any one makes the page suspect"
        name="mustNotContain"
        list={value.mustNotContain}
        onChange={(l) => onChange({ ...value, mustNotContain: l })}
        problem={problem}
      />
    </div>
  );
}
