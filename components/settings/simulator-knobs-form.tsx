"use client";

import { useId, useState } from "react";
import {
  RATE_KNOBS,
  type RateKnob,
  type SimulatorKnobs,
  type SimulatorKnobsPatch,
  simulatorKnobsPatchSchema,
} from "@/lib/demo/client";
import { errorText } from "@/lib/browser/client";
import { Button } from "@/components/ui/button";
import { ErrorNotice, Notice } from "@/components/ui/feedback";
import { useSaveSimulatorKnobs } from "./use-save-simulator-knobs";

// What the inputs hold: text, so a half-typed number is not snapped back while the operator types.
type Range = "delayMin" | "delayMax" | "sizeMin" | "sizeMax";
type Draft = { rates: Partial<Record<RateKnob, string>> } & Record<Range, string>;

function draftOf(k: SimulatorKnobs): Draft {
  const rates = Object.fromEntries(RATE_KNOBS.map(({ name }) => [name, String(k[name])]));
  return {
    rates,
    delayMin: String(k.webhookDelayMs[0]),
    delayMax: String(k.webhookDelayMs[1]),
    sizeMin: String(k.bodyBytes[0]),
    sizeMax: String(k.bodyBytes[1]),
  };
}

const RANGE_LABELS: Record<string, string> = { webhookDelayMs: "Webhook delay", bodyBytes: "Page size" };

/** Only what changed, so a save does not overwrite knobs someone else moved meanwhile. */
function patchOf(draft: Draft, current: SimulatorKnobs): SimulatorKnobsPatch | string {
  const raw: Record<string, unknown> = {};
  for (const { name } of RATE_KNOBS) {
    const text = draft.rates[name] ?? "";
    if (Number(text) !== current[name]) raw[name] = text === "" ? NaN : Number(text);
  }
  const delay = [Number(draft.delayMin), Number(draft.delayMax)];
  if (delay[0] !== current.webhookDelayMs[0] || delay[1] !== current.webhookDelayMs[1]) raw.webhookDelayMs = delay;
  const size = [Number(draft.sizeMin), Number(draft.sizeMax)];
  if (size[0] !== current.bodyBytes[0] || size[1] !== current.bodyBytes[1]) raw.bodyBytes = size;
  const parsed = simulatorKnobsPatchSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = String(issue?.path[0] ?? "");
  const label = RATE_KNOBS.find((k) => k.name === field)?.label ?? RANGE_LABELS[field] ?? "Value";
  return `${label}: ${issue?.message ?? "invalid value"}`;
}

const box = "rounded border border-slate-300 bg-white px-2 py-1";

export function SimulatorKnobsForm({ knobs }: { knobs: SimulatorKnobs }) {
  const id = useId();
  const save = useSaveSimulatorKnobs();
  const [draft, setDraft] = useState<Draft>(() => draftOf(knobs));
  const [problem, setProblem] = useState<string | null>(null);
  const setRate = (name: RateKnob, value: string) => {
    save.reset();
    setDraft((d) => ({ ...d, rates: { ...d.rates, [name]: value } }));
  };
  const setRange = (end: Range, value: string) => {
    save.reset();
    setDraft((d) => ({ ...d, [end]: value }));
  };

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const patch = patchOf(draft, knobs);
    if (typeof patch === "string") return setProblem(patch);
    setProblem(null);
    if (Object.keys(patch).length === 0) return setProblem("Nothing changed.");
    save.mutate(patch, { onSuccess: (next) => setDraft(draftOf(next)) });
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Simulator fault knobs" className="space-y-4 text-sm">
      <div className="grid gap-x-6 gap-y-4 md:grid-cols-2">
        {RATE_KNOBS.map((k) => (
          <div key={k.name}>
            <label id={`${id}-${k.name}-label`} htmlFor={`${id}-${k.name}`} className="font-medium">
              {k.label}
            </label>
            <div className="mt-1 flex items-center gap-2">
              <input
                type="range"
                min={0}
                max={1}
                step={0.01}
                value={Number(draft.rates[k.name]) || 0}
                aria-labelledby={`${id}-${k.name}-label`}
                aria-describedby={`${id}-${k.name}-hint`}
                onChange={(e) => setRate(k.name, e.target.value)}
                className="grow accent-brand-600"
              />
              <input
                id={`${id}-${k.name}`}
                name={k.name}
                type="number"
                min={0}
                max={1}
                step={0.01}
                inputMode="decimal"
                value={draft.rates[k.name] ?? ""}
                aria-describedby={`${id}-${k.name}-hint`}
                onChange={(e) => setRate(k.name, e.target.value)}
                className={`${box} w-20 tabular-nums`}
              />
            </div>
            <p id={`${id}-${k.name}-hint`} className="text-xs text-slate-500">
              {k.hint} (0 = never, 1 = always)
            </p>
          </div>
        ))}
      </div>
      <RangeFields
        legend="Webhook delay range (milliseconds)"
        ends={[
          ["delayMin", "Shortest"],
          ["delayMax", "Longest"],
        ]}
        max={3_600_000}
        step={100}
        draft={draft}
        onChange={setRange}
      />
      <RangeFields
        legend="Page size range (bytes of markdown; html about three times that)"
        ends={[
          ["sizeMin", "Smallest"],
          ["sizeMax", "Largest"],
        ]}
        max={16_000_000}
        step={1000}
        draft={draft}
        onChange={setRange}
      />
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" pending={save.isPending} pendingLabel="Saving…">
          Save knobs
        </Button>
        <Button
          variant="ghost"
          onClick={() => {
            setDraft(draftOf(knobs));
            setProblem(null);
            save.reset();
          }}
          disabled={save.isPending}
        >
          Undo changes
        </Button>
      </div>
      {problem && <ErrorNotice title="Not saved" message={problem} />}
      {save.error && <ErrorNotice title="Not saved" message={errorText(save.error)} />}
      {save.isSuccess && (
        <Notice tone="good">Saved. The simulator uses these values from now on; the change is in the audit log.</Notice>
      )}
    </form>
  );
}

function RangeFields({
  legend,
  ends,
  max,
  step,
  draft,
  onChange,
}: {
  legend: string;
  ends: [[Range, string], [Range, string]];
  max: number;
  step: number;
  draft: Draft;
  onChange: (end: Range, value: string) => void;
}) {
  const id = useId();
  return (
    <fieldset className="flex flex-wrap items-end gap-3">
      <legend className="mb-1 font-medium">{legend}</legend>
      {ends.map(([end, label]) => (
        <label key={end} className="flex flex-col gap-1" htmlFor={`${id}-${end}`}>
          <span>{label}</span>
          <input
            id={`${id}-${end}`}
            type="number"
            min={0}
            max={max}
            step={step}
            value={draft[end]}
            onChange={(e) => onChange(end, e.target.value)}
            className={`${box} w-32`}
          />
        </label>
      ))}
    </fieldset>
  );
}
