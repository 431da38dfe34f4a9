"use client";

import { rungName, type Rung } from "@/lib/runs/client";
import { Button } from "@/components/ui/button";
import type { ProblemOf } from "./checks-editor";

// The escalation ladder: rung 1 is what every URL is sent with first; a suspect or BLOCKED page is sent
// again at the next rung, until one passes its checks or the last one fails.

const MAX_RUNGS = 6;
const WAITS = ["commit", "domcontentloaded", "load", "networkidle"] as const;
const PROXIES = ["datacenter", "residential", "mix"] as const;
const input = "rounded border border-slate-300 px-2 py-1 text-sm";

function problemUnder(problem: ProblemOf, i: number): string | undefined {
  for (const f of ["renderJs", "waitConfig.waitUntil", "waitConfig", "proxyType", "proxyCountry"]) {
    const p = problem(`escalation.${i}.${f}`);
    if (p) return `${f}: ${p}`;
  }
  return problem(`escalation.${i}`);
}

function RungRow({ i, r, set }: { i: number; r: Rung; set: (r: Rung) => void }) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm">
      <label className="flex items-center gap-1.5">
        <input
          type="checkbox"
          checked={r.renderJs === true || r.waitConfig !== undefined}
          disabled={r.waitConfig !== undefined}
          onChange={(e) => set({ ...r, renderJs: e.target.checked || undefined })}
        />
        render_js
      </label>
      <label className="flex items-center gap-1.5">
        wait
        <select
          aria-label={`Rung ${i + 1}: wait until`}
          className={input}
          value={r.waitConfig?.waitUntil ?? ""}
          onChange={(e) => {
            const w = WAITS.find((x) => x === e.target.value);
            set({ ...r, waitConfig: w ? { ...r.waitConfig, waitUntil: w } : undefined });
          }}
        >
          <option value="">no wait</option>
          {WAITS.map((w) => (
            <option key={w} value={w}>
              {w}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-1.5">
        proxy
        <select
          aria-label={`Rung ${i + 1}: proxy type`}
          className={input}
          value={r.proxyType ?? ""}
          onChange={(e) => set({ ...r, proxyType: PROXIES.find((x) => x === e.target.value) })}
        >
          <option value="">platform default</option>
          {PROXIES.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-1.5">
        country
        <input
          aria-label={`Rung ${i + 1}: proxy country`}
          className={`${input} w-14 uppercase`}
          maxLength={2}
          placeholder="any"
          value={r.proxyCountry ?? ""}
          onChange={(e) =>
            set({ ...r, proxyCountry: e.target.value.trim() === "" ? undefined : e.target.value.trim() })
          }
        />
      </label>
    </div>
  );
}

/** Drops the keys a select or box left undefined, so the API gets `{}` for a plain rung. */
function clean(r: Rung): Rung {
  return Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as Rung;
}

export function LadderEditor({
  rungs,
  onChange,
  problem,
}: {
  rungs: Rung[];
  onChange: (r: Rung[]) => void;
  problem: ProblemOf;
}) {
  return (
    <ol className="space-y-3">
      {rungs.map((r, i) => {
        const p = problemUnder(problem, i);
        return (
          <li key={i} className="min-w-0 rounded border border-slate-200 p-2">
            <div className="mb-1 flex flex-wrap items-center justify-between gap-2">
              <span className="text-sm font-medium">
                Rung {i + 1}: <span className="font-mono text-xs">{rungName(r)}</span>
                {i === 0 && <span className="text-slate-500"> (every URL starts here)</span>}
              </span>
              {rungs.length > 1 && (
                <Button variant="ghost" onClick={() => onChange(rungs.filter((_, j) => j !== i))}>
                  Remove rung {i + 1}
                </Button>
              )}
            </div>
            <RungRow i={i} r={r} set={(n) => onChange(rungs.map((x, j) => (j === i ? clean(n) : x)))} />
            {p && <p className="mt-1 text-sm text-red-700">{p}</p>}
          </li>
        );
      })}
      {rungs.length < MAX_RUNGS && (
        <li>
          <Button variant="secondary" onClick={() => onChange([...rungs, { renderJs: true }])}>
            Add a rung
          </Button>
        </li>
      )}
    </ol>
  );
}
