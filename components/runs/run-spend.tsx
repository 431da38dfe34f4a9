import type { CapName, RunView } from "@/lib/runs/client";
import { Card } from "@/components/ui/card";
import { Notice } from "@/components/ui/feedback";
import { Table, Td, Th } from "@/components/ui/table";

// A run's spend (issue 39): tokens the platform charged against the run's cap, why it stopped submitting
// when the cap was reached, and batches, URLs and tokens per rung of its escalation ladder (rung 0 is the
// run's own options; the rungs above are the extra cost of pages that failed their content checks).

const n = (v: number) => v.toLocaleString("en");
const capName = (c: CapName) => (c === "run" ? "the run's cap (maxTokens)" : "the collection's monthly cap");

export function RunSpend({ run }: { run: RunView }) {
  const t = run.tokens;
  // Every rung of the ladder, those no batch has reached yet at zero.
  const spent = run.rungs ?? [];
  const ladder = run.ladder ?? [];
  const rungs = [
    ...ladder.map((l) => spent.find((r) => r.rung === l.rung) ?? { ...l, batches: 0, urls: 0, tokens: 0 }),
    ...spent.filter((r) => !ladder.some((l) => l.rung === r.rung)),
  ].sort((a, b) => a.rung - b.rung);
  const extra = rungs.filter((r) => r.rung > 0).reduce((s, r) => s + r.tokens, 0);
  return (
    <Card title="Spend">
      {t.capReason && (
        <Notice tone="warn">
          Submitting stopped: {t.capReason}. The URLs still waiting failed with <code>token_cap</code>.
        </Notice>
      )}
      {t.capHit && !t.capReason && (
        <Notice tone="warn">
          Waiting: {capName(t.capHit.cap)} ({n(t.capHit.limit)} tokens) refused the next batch by {n(t.capHit.over)}{" "}
          tokens ({n(t.capHit.used)} charged or reserved, the batch needs {n(t.capHit.wanted)}); it goes out if batches
          in flight settle for less.
        </Notice>
      )}
      {t.capHit && t.capReason && (
        <p className="mb-2 text-sm text-slate-700" data-testid="cap-hit">
          Stopped by {capName(t.capHit.cap)}: {n(t.capHit.limit)} tokens, {n(t.capHit.used)} charged or reserved, the
          next batch needed {n(t.capHit.wanted)}: {n(t.capHit.over)} over.
        </p>
      )}
      <p className="text-sm text-slate-700">
        <span className="font-semibold tabular-nums">{n(t.charged)}</span> tokens charged
        {t.max !== null && <> of a cap of {n(t.max)}</>}
        {t.reserved > 0 && <> · {n(t.reserved)} reserved by batches in flight</>}
        {extra > 0 && <> · {n(extra)} of them on escalation rungs</>}
        {run.counts.suspect > 0 && <> · {n(run.counts.suspect)} URLs suspect, waiting for their next rung</>}
      </p>
      {run.platform && (
        <p className="mt-1 text-sm text-slate-700" data-testid="platform-submissions">
          On the platform: <span className="tabular-nums">{n(run.platform.jobs)}</span> batch jobs for its chunks
          {run.platform.duplicates > 0 ? (
            <>
              {" "}
              · {n(run.platform.duplicates)} duplicate submission{run.platform.duplicates === 1 ? "" : "s"} (a chunk
              whose answer was lost, posted again), charged {n(run.platform.duplicateTokens)} tokens on top
            </>
          ) : (
            <> · no duplicate submissions</>
          )}
        </p>
      )}
      {rungs.length > 0 && (
        <div className="mt-3">
          <Table caption="Batches, URLs and tokens per rung">
            <thead>
              <tr>
                <Th>Rung</Th>
                <Th className="hidden text-right sm:table-cell">Batches</Th>
                <Th className="text-right">URLs</Th>
                <Th className="text-right">Tokens</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rungs.map((r) => (
                <tr key={r.rung}>
                  <Td>
                    {r.rung} · {r.name}
                  </Td>
                  <Td className="hidden text-right tabular-nums sm:table-cell">{n(r.batches)}</Td>
                  <Td className="text-right tabular-nums">{n(r.urls)}</Td>
                  <Td className="text-right tabular-nums">{n(r.tokens)}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
    </Card>
  );
}
