import { Card, Stat } from "@/components/ui/card";
import { Time } from "@/components/ui/time";
import type { BudgetView } from "@/lib/platform/client";

// The circuit breaker every process shares: whether calls go out, and who opened it, when and why.
export function BreakerCard({ breaker: b }: { breaker: BudgetView["breaker"] }) {
  const value = { closed: "closed", open: "open", probing: "probing" }[b.state];
  return (
    <Card title="Circuit breaker (every process)">
      <div className="grid gap-4 sm:grid-cols-[12rem_1fr]">
        <Stat
          label="platform calls"
          value={value}
          tone={b.state === "closed" ? "good" : "bad"}
          hint={b.state === "closed" ? "calls go out" : "no process sends but the one probe"}
        />
        <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1 text-sm">
          {b.since && (
            <>
              <dt className="text-slate-600">open since</dt>
              <dd>
                <Time iso={b.since} /> · {b.failedInARow} calls in a row failed
              </dd>
            </>
          )}
          {b.openedBy && (
            <>
              <dt className="text-slate-600">{b.since ? "opened by" : "last opened by"}</dt>
              <dd className="font-mono text-xs">{b.openedBy}</dd>
              <dt className="text-slate-600">why</dt>
              <dd className="break-words">{b.reason}</dd>
            </>
          )}
          {b.nextProbeAt && (
            <>
              <dt className="text-slate-600">{b.probingBy ? "probing" : "next probe"}</dt>
              <dd>
                {b.probingBy ? <span className="font-mono text-xs">{b.probingBy}</span> : <Time iso={b.nextProbeAt} />}
              </dd>
            </>
          )}
          {b.closedAt && (
            <>
              <dt className="text-slate-600">last closed</dt>
              <dd>
                <Time iso={b.closedAt} /> by an answer to <span className="font-mono text-xs">{b.closedBy}</span>
              </dd>
            </>
          )}
          {!b.openedBy && !b.closedAt && (
            <>
              <dt className="text-slate-600">opened</dt>
              <dd className="text-slate-600">never</dd>
            </>
          )}
        </dl>
      </div>
    </Card>
  );
}
