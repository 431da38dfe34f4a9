"use client";

import { capOf } from "./drafts";

/** A token cap as an operator types it (blank: no cap); a problem from the server shows under it. */
export function TokenCapField({
  label,
  hint,
  value,
  onChange,
  problem,
}: {
  label: string;
  hint: string;
  value: string;
  onChange: (v: string) => void;
  problem?: string;
}) {
  const invalid = capOf(value).invalid;
  const shown = invalid ? "A whole number of tokens, 1 or more." : problem;
  return (
    <label className="block text-sm">
      <span className="font-medium">{label}</span> <span className="text-slate-500">({hint})</span>
      <input
        value={value}
        onChange={(e) => onChange(e.target.value)}
        inputMode="numeric"
        placeholder="no cap"
        aria-invalid={shown !== undefined}
        className="mt-1 block w-48 max-w-full rounded border border-slate-300 px-2 py-1.5 tabular-nums"
      />
      {shown && <span className="mt-1 block text-red-700">{shown}</span>}
    </label>
  );
}
