// --soak N with --runs: the runs mode on N seeds one after another (seed, seed + 1, …), one line per
// seed and a total, so a race that shows once in ten runs is seen, and which seed shows it.
import { printRunsLedger, runRunsChaos, type RunFacts, type RunsChaosOptions, type RunVerdict } from "./runs";

export type SoakRow = {
  seed: number;
  ok: boolean;
  stored: number;
  failed: number;
  /** Tally's duplicateSubmits and the platform's submissions made twice. */
  duplicates: number;
  platformDuplicates: number;
  /** Tokens for the run's jobs, duplicates included: the simulator's charge and Tally's figure. */
  platformTokens: number;
  tallyTokens: number;
  seconds: number;
  /** The verdict's failed checks, or the error that stopped the seed's run. */
  why: string;
};

export function soakRow(seed: number, seconds: number, facts: RunFacts, v: RunVerdict): SoakRow {
  const checks = ["allFinal", "countersAddUp", "countersMatchRows", "duplicatesReported", "tokensMatch"] as const;
  const failedChecks: string[] = checks.filter((k) => !v[k]);
  if (v.storedTwice > 0) failedChecks.push(`storedTwice ${v.storedTwice}`);
  return {
    seed,
    ok: v.ok,
    stored: facts.counters.stored,
    failed: facts.counters.failed,
    duplicates: facts.duplicateSubmits,
    platformDuplicates: v.extraSubmissions,
    platformTokens: facts.platformTokens + facts.platformDuplicateTokens,
    tallyTokens: facts.tallyTokens + facts.tallyDuplicateTokens,
    seconds,
    why: failedChecks.join(", "),
  };
}

export function formatSoakRow(r: SoakRow): string {
  return (
    `seed ${String(r.seed).padStart(6)}  ${r.ok ? "ok  " : "FAIL"}  stored ${r.stored} failed ${r.failed}` +
    `  duplicates ${r.duplicates} (platform ${r.platformDuplicates})` +
    `  tokens platform ${r.platformTokens} Tally ${r.tallyTokens}  ${r.seconds} s${r.why ? `  ${r.why}` : ""}`
  );
}

export function formatSoakTotal(rows: SoakRow[]): string {
  const sum = (f: (r: SoakRow) => number) => rows.reduce((n, r) => n + f(r), 0);
  const failed = rows.filter((r) => !r.ok);
  return (
    `total: ${rows.length - failed.length} of ${rows.length} seeds ok` +
    (failed.length ? ` (FAILED: ${failed.map((r) => r.seed).join(", ")})` : "") +
    `, stored ${sum((r) => r.stored)} failed ${sum((r) => r.failed)}, duplicates ${sum((r) => r.duplicates)}` +
    ` (platform ${sum((r) => r.platformDuplicates)}), tokens platform ${sum((r) => r.platformTokens)}` +
    ` Tally ${sum((r) => r.tallyTokens)}, ${sum((r) => r.seconds)} s`
  );
}

/** Runs the seeds in turn; a seed whose run throws (a timeout) is a failed row, and the soak goes on. */
export async function runSoak(
  o: Omit<RunsChaosOptions, "seed">,
  firstSeed: number,
  seeds: number,
  log: (s: string) => void = console.log,
): Promise<SoakRow[]> {
  const rows: SoakRow[] = [];
  for (let seed = firstSeed; seed < firstSeed + seeds; seed++) {
    const started = Date.now();
    const seconds = () => Math.round((Date.now() - started) / 1000);
    let row: SoakRow;
    try {
      const { facts, verdict } = await runRunsChaos({ ...o, seed, log: o.log ?? log });
      if (!verdict.ok) printRunsLedger(facts, verdict, log);
      row = soakRow(seed, seconds(), facts, verdict);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      row = { ...emptyRow(seed, seconds()), why };
    }
    rows.push(row);
    log(`soak: ${formatSoakRow(row)}`);
  }
  return rows;
}

const emptyRow = (seed: number, seconds: number): SoakRow => ({
  seed,
  ok: false,
  stored: 0,
  failed: 0,
  duplicates: 0,
  platformDuplicates: 0,
  platformTokens: 0,
  tallyTokens: 0,
  seconds,
  why: "",
});
