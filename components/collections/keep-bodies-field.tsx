"use client";

// The collection form's "keep the bodies of the last N runs" (keepBodiesRuns, issue 40), on its own so
// the form gains three lines: blank is no limit; anything but a whole number goes to the server as
// typed, which answers 400 naming the field (never silently "no limit").

const field = "w-full rounded border border-slate-300 px-2 py-1 text-sm";

/** The text shown for a saved value. */
export const keepBodiesRunsText = (n: number | null) => (n === null ? "" : String(n));

/** The JSON value for the typed text: null when blank, a number when a whole number, else the text. */
export function keepBodiesRunsValue(text: string): number | string | null {
  const t = text.trim();
  if (t === "") return null;
  return /^\d+$/.test(t) ? Number(t) : t;
}

export function KeepBodiesField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <label className="block text-sm">
      Keep page bodies of the last N runs
      <input
        className={field}
        inputMode="numeric"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="all runs"
        aria-describedby="keep-bodies-runs-help"
      />
      <span id="keep-bodies-runs-help" className="mt-0.5 block text-xs text-slate-500">
        Older runs keep their rows, states and changes; their bodies show as removed by retention. Blank: no limit.
      </span>
    </label>
  );
}
