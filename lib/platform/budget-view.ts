import "server-only";
import { z } from "zod";
import { getConfig } from "../config";
import { db, sqlInt } from "../db";
import { ANSWER_CLASSES, CALL_PURPOSES } from "./purpose";
import { flushApiCalls } from "./shared-client";
import { breakerView } from "./breaker-view";
import { databaseBudgetStore } from "./shared-budget-store";
import { readBreaker } from "./shared-breaker-store";
import type { BudgetView } from "./budget-contracts";

// The API budget view: every process's platform calls (ApiCallMinute, flushed in batches) over the
// last hour, per minute and purpose against TALLY_API_RPS, their answer classes, the 429 pauses, and
// calls per job finished in the hour. Grouped in the database; at most 60 × purposes × classes rows.

const HOUR_MS = 60 * 60_000;
const FETCH: readonly string[] = ["worker refetch", "result pages"];
const POLLING: readonly string[] = ["poll", "poll sweep"];

const countRow = z.object({ source: z.string().nullable(), n: sqlInt });

export async function getBudgetView(now = new Date()): Promise<BudgetView> {
  const config = getConfig();
  // This process's counts of the last few seconds are not lost from the view.
  await flushApiCalls().catch(() => undefined);
  const end = Math.floor(now.getTime() / 60_000) * 60_000;
  const start = end - 59 * 60_000;
  const hourAgo = new Date(now.getTime() - HOUR_MS);
  const key = config.apiBaseUrl ? `platform ${config.apiBaseUrl}` : null;
  const [rows, finishedRows, pausedUntil, breaker] = await Promise.all([
    db().apiCallMinute.groupBy({
      by: ["minute", "purpose", "answer"],
      where: { minute: { gte: new Date(start) } },
      _sum: { count: true },
    }),
    db().$queryRaw`
      SELECT r."source" AS "source", COUNT(*) AS "n" FROM "Job" j LEFT JOIN "Receipt" r ON r."jobId" = j."id"
      WHERE j."outcome" <> 'pending' AND j."outcomeAt" >= ${hourAgo} GROUP BY r."source"`,
    key ? databaseBudgetStore.readPause(key).catch(() => 0) : Promise.resolve(0),
    key ? readBreaker(key).then((row) => breakerView(row, now.getTime())) : Promise.resolve(breakerView()),
  ]);

  const minutes = Array.from({ length: 60 }, (_, i) => ({
    t: start + i * 60_000,
    total: 0,
    byPurpose: {} as Record<string, number>,
    rateLimited: 0,
  }));
  const purposes = new Map<
    string,
    { calls: number; answers: Record<string, number>; perMinute: Map<number, number> }
  >();
  const answers: Record<string, number> = {};
  for (const r of rows) {
    const n = r._sum.count ?? 0;
    const m = minutes[Math.round((r.minute.getTime() - start) / 60_000)];
    if (!m) continue;
    m.total += n;
    m.byPurpose[r.purpose] = (m.byPurpose[r.purpose] ?? 0) + n;
    if (r.answer === "429") m.rateLimited += n;
    const p = purposes.get(r.purpose) ?? { calls: 0, answers: {}, perMinute: new Map<number, number>() };
    p.calls += n;
    p.answers[r.answer] = (p.answers[r.answer] ?? 0) + n;
    p.perMinute.set(m.t, (p.perMinute.get(m.t) ?? 0) + n);
    purposes.set(r.purpose, p);
    answers[r.answer] = (answers[r.answer] ?? 0) + n;
  }
  const known = [...CALL_PURPOSES].filter((p) => p !== "other" || purposes.has("other"));
  const extra = [...purposes.keys()].filter((p) => !known.some((k) => k === p));
  const byPurpose = [...known, ...extra].map((purpose) => {
    const p = purposes.get(purpose);
    return {
      purpose,
      calls: p?.calls ?? 0,
      perMinute: Math.round(((p?.calls ?? 0) / 60) * 10) / 10,
      peakPerMinute: Math.max(0, ...(p ? [...p.perMinute.values()] : [])),
      answers: p?.answers ?? {},
    };
  });
  const callsOf = (names: readonly string[]) =>
    byPurpose.filter((p) => names.includes(p.purpose)).reduce((n, p) => n + p.calls, 0);
  const totalCalls = byPurpose.reduce((n, p) => n + p.calls, 0);

  const finished = { total: 0, byWebhook: 0, byPoll: 0, other: 0 };
  for (const r of countRow.array().parse(finishedRows)) {
    finished.total += r.n;
    if (r.source === "webhook") finished.byWebhook += r.n;
    else if (r.source === "poll") finished.byPoll += r.n;
    else finished.other += r.n;
  }
  const per = (calls: number, jobs: number) => (jobs > 0 ? Math.round((calls / jobs) * 1000) / 1000 : null);
  const fetchPerJob = per(callsOf(FETCH), finished.total);

  return {
    generatedAt: now.toISOString(),
    from: new Date(start).toISOString(),
    to: now.toISOString(),
    requestsPerSecond: config.TALLY_API_RPS,
    budgetPerMinute: config.TALLY_API_RPS * 60,
    purposes: [...known, ...extra],
    answerClasses: [...ANSWER_CLASSES],
    minutes,
    byPurpose,
    answers,
    totalCalls,
    peakPerMinute: Math.max(0, ...minutes.map((m) => m.total)),
    rateLimited: {
      answers: answers["429"] ?? 0,
      minutesWithPause: minutes.filter((m) => m.rateLimited > 0).length,
      pausedForMs: Math.max(0, pausedUntil - now.getTime()),
    },
    breaker,
    finished,
    perJob: {
      allButSubmits: per(totalCalls - callsOf(["submit"]), finished.total),
      webhookTerms: fetchPerJob,
      // Polls are spent on the jobs polling found; the fetch is the same for every job.
      pollingTerms:
        finished.byPoll > 0 && fetchPerJob !== null
          ? Math.round((fetchPerJob + callsOf(POLLING) / finished.byPoll) * 1000) / 1000
          : null,
    },
  };
}
