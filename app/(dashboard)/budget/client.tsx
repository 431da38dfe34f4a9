"use client";

import { BreakerCard } from "@/components/budget/breaker-card";
import { CallsChart } from "@/components/budget/calls-chart";
import { PurposeTable } from "@/components/budget/purpose-table";
import { BUDGET_REFRESH_MS, useBudget } from "@/components/budget/use-budget";
import { Card, Stat } from "@/components/ui/card";
import { ErrorNotice, PageSkeleton } from "@/components/ui/feedback";
import { RefreshingNote } from "@/components/ui/refreshing";
import { Time } from "@/components/ui/time";
import { errorText } from "@/lib/browser/client";

const perJob = (v: number | null) => (v === null ? "–" : v.toFixed(2));

export function BudgetClient() {
  const { data, error, isFetching } = useBudget();
  if (!data)
    return error ? <ErrorNotice title="Could not load the budget" message={errorText(error)} /> : <PageSkeleton />;
  const rl = data.rateLimited;
  const f = data.finished;
  return (
    <div className="space-y-4">
      <p className="text-xs text-slate-500" aria-live="polite">
        last hour, every process · updated <Time iso={data.generatedAt} /> · refreshes every {BUDGET_REFRESH_MS / 1000}{" "}
        s<RefreshingNote active={isFetching} />
      </p>
      {error && <ErrorNotice title="Live refresh failed; showing the last figures" message={error.message} />}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Card title="Calls">
          <Stat
            label="in the last hour"
            value={data.totalCalls.toLocaleString("en-US")}
            hint={`busiest minute ${data.peakPerMinute} of ${data.budgetPerMinute} allowed`}
          />
        </Card>
        <Card title="Rate limited">
          <Stat
            label="429 answers"
            value={rl.answers}
            tone={rl.answers > 0 ? "warn" : "good"}
            hint={
              rl.pausedForMs > 0
                ? `paused now: ${Math.ceil(rl.pausedForMs / 1000)} s more`
                : `${rl.minutesWithPause} minute${rl.minutesWithPause === 1 ? "" : "s"} with a pause; not paused now`
            }
          />
        </Card>
        <Card title="Per finished job">
          <Stat
            label="calls, submits excluded"
            value={perJob(data.perJob.allButSubmits)}
            hint={`${f.total} jobs finished in the hour`}
          />
        </Card>
        <Card title="Webhook vs polling">
          <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-600">webhook terms</dt>
            <dd className="text-right font-semibold tabular-nums">{perJob(data.perJob.webhookTerms)}</dd>
            <dt className="text-slate-600">polling terms</dt>
            <dd className="text-right font-semibold tabular-nums">{perJob(data.perJob.pollingTerms)}</dd>
          </dl>
          <p className="mt-2 text-xs text-slate-500">
            heard by webhook {f.byWebhook}, by polling {f.byPoll}, by a safety net {f.other}
          </p>
        </Card>
      </div>
      <BreakerCard breaker={data.breaker} />
      <Card title="Calls per minute by purpose">
        <CallsChart view={data} />
      </Card>
      <Card title="By purpose and answer">
        <PurposeTable view={data} />
        <p className="mt-2 text-xs text-slate-500">
          Webhook terms: the worker&apos;s refetch and result pages per finished job. Polling terms: the same plus the
          status calls and list sweeps spent per job that polling noticed. Counts are flushed by each process every few
          seconds.
        </p>
      </Card>
    </div>
  );
}
