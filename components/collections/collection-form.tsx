"use client";

import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { errorText, fieldProblems, postParsed } from "@/lib/browser/client";
import { type CollectionDetail, collectionSummarySchema } from "@/lib/collections/client";
import { ChecksEditor } from "@/components/content-checks/checks-editor";
import { capOf, checksDraftOf, checksOfDraft, ladderOf } from "@/components/content-checks/drafts";
import { LadderEditor } from "@/components/content-checks/ladder-editor";
import { TokenCapField } from "@/components/content-checks/token-cap-field";
import { TokenEstimate } from "@/components/content-checks/token-estimate";
import { Button } from "@/components/ui/button";
import { ErrorNotice, Notice } from "@/components/ui/feedback";
import { FieldProblem, problemProps, useFocusFirstProblem } from "@/components/ui/field-problem";
import { Time } from "@/components/ui/time";
import { useDraft } from "@/components/ui/use-draft";
import { KeepBodiesField, keepBodiesRunsText, keepBodiesRunsValue } from "./keep-bodies-field";

const field = "w-full rounded border border-slate-300 px-2 py-1 text-sm aria-invalid:border-red-600";

const section = "min-w-0 space-y-3 border-t border-slate-200 pt-3";

/** What a new collection starts from: no schedule, UTC, the default checks and ladder, no caps. */
const NEW_COLLECTION = {
  urls: "",
  schedule: null,
  timezone: "UTC",
  overlap: "skip",
  ignorePatterns: [],
  checks: null,
  escalation: null,
  maxTokens: null,
  monthlyMaxTokens: null,
  keepBodiesRuns: null,
  tokensThisMonth: 0,
} satisfies Partial<CollectionDetail>;

/** What a new collection's draft keeps while it is typed (components/ui/use-draft.ts). */
type CollectionDraft = {
  name: string;
  urls: string;
  schedule: string;
  timezone: string;
  patterns: string;
  maxTokens: string;
  monthly: string;
  keepRuns: string;
};
const emptyCollectionDraft = (d: CollectionDraft) => d.name.trim() === "" && d.urls.trim() === "";

/**
 * Edit a collection's list, schedule, content checks, ladder and caps (POST /api/collections/{id}); the
 * next run uses them. Without a collection (`c` null) the same form makes a new one (POST /api/collections,
 * with its name) and opens it.
 */
export function CollectionForm({ c: existing }: { c: CollectionDetail | null }) {
  const router = useRouter();
  const c = existing ?? NEW_COLLECTION;
  const [name, setName] = useState("");
  const [urls, setUrls] = useState(c.urls ?? "");
  const [schedule, setSchedule] = useState(c.schedule ?? "");
  const [timezone, setTimezone] = useState(c.timezone);
  const [overlap, setOverlap] = useState(c.overlap);
  const [patterns, setPatterns] = useState(c.ignorePatterns.join("\n"));
  const [checks, setChecks] = useState(() => checksDraftOf(c.checks));
  const [rungs, setRungs] = useState(() => ladderOf(c.escalation));
  const [escalate, setEscalate] = useState(c.escalation === null || c.escalation.length > 1);
  const [maxTokens, setMaxTokens] = useState(c.maxTokens === null ? "" : String(c.maxTokens));
  const [monthly, setMonthly] = useState(c.monthlyMaxTokens === null ? "" : String(c.monthlyMaxTokens));
  const urlCount = useMemo(() => urls.split(/\r?\n/).filter((u) => u.trim() !== "").length, [urls]);
  const capsInvalid = capOf(maxTokens).invalid || capOf(monthly).invalid;
  const [keepRuns, setKeepRuns] = useState(keepBodiesRunsText(c.keepBodiesRuns));
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  // A new collection's fields are kept as a draft in this browser (a session that ends loses nothing).
  const draft = useDraft<CollectionDraft>(
    existing ? `collection-${existing.id}` : "new-collection",
    emptyCollectionDraft,
  );
  const { keep } = draft;
  useEffect(() => {
    if (!existing) keep({ name, urls, schedule, timezone, patterns, maxTokens, monthly, keepRuns });
  }, [existing, keep, name, urls, schedule, timezone, patterns, maxTokens, monthly, keepRuns]);
  const restoreDraft = () => {
    const d = draft.restore();
    if (!d) return;
    setName(d.name);
    setUrls(d.urls);
    setSchedule(d.schedule);
    setTimezone(d.timezone);
    setPatterns(d.patterns);
    setMaxTokens(d.maxTokens);
    setMonthly(d.monthly);
    setKeepRuns(d.keepRuns);
  };
  const problems = fieldProblems(error);
  const problem = (path: string) => problems.get(path);
  // A pattern's problem is filed under its place (ignorePatterns.3); the box shows them all.
  const patternProblems = [...problems].filter(([k]) => k === "ignorePatterns" || k.startsWith("ignorePatterns."));
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstProblem(form, error);
  const save = async () => {
    if (capsInvalid) return;
    setPending(true);
    setError(null);
    setSaved(false);
    try {
      const path = existing ? `/api/collections/${encodeURIComponent(existing.id)}` : "/api/collections";
      const made = await postParsed(path, collectionSummarySchema, {
        ...(existing ? {} : { name: name.trim() }),
        urls: urls.split(/\r?\n/),
        schedule: schedule.trim() === "" ? null : schedule.trim(),
        timezone: timezone.trim(),
        overlap,
        ignorePatterns: patterns.split(/\r?\n/).filter((p) => p.trim() !== ""),
        checks: checksOfDraft(checks),
        // Without escalation the ladder is its first rung alone: a page that fails its checks is final at once.
        escalation: escalate ? rungs : rungs.slice(0, 1),
        maxTokens: capOf(maxTokens).value,
        monthlyMaxTokens: capOf(monthly).value,
        keepBodiesRuns: keepBodiesRunsValue(keepRuns),
      });
      if (!existing) {
        draft.forget();
        router.push(`/collections/${encodeURIComponent(made.id)}`);
        return;
      }
      setSaved(true);
      router.refresh();
    } catch (err) {
      setError(err);
    } finally {
      setPending(false);
    }
  };
  return (
    <form
      ref={form}
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {!existing && draft.offered && (
        <Notice>
          <span data-testid="draft-offer">
            You have a draft of a new collection from <Time iso={draft.offered.savedAt} /> (kept in this browser).{" "}
            <button type="button" className="font-medium underline" onClick={restoreDraft}>
              Restore it
            </button>{" "}
            ·{" "}
            <button type="button" className="underline" onClick={draft.discard}>
              Discard it
            </button>
          </span>
        </Notice>
      )}
      {!existing && (
        <label className="block text-sm">
          Name
          <input
            className={field}
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            maxLength={200}
            {...problemProps("collection-name", problem("name"))}
          />
          <FieldProblem id="collection-name" problem={problem("name")} />
        </label>
      )}
      <div className="grid gap-3 sm:grid-cols-3">
        <label className="block text-sm">
          Schedule (cron)
          <input
            className={field}
            value={schedule}
            onChange={(e) => setSchedule(e.target.value)}
            placeholder="0 2 * * *"
            {...problemProps("collection-schedule", problem("schedule"))}
          />
          <FieldProblem id="collection-schedule" problem={problem("schedule")} />
        </label>
        <label className="block text-sm">
          Time zone (IANA)
          <input
            className={field}
            value={timezone}
            onChange={(e) => setTimezone(e.target.value)}
            placeholder="Asia/Jakarta"
            {...problemProps("collection-timezone", problem("timezone"))}
          />
          <FieldProblem id="collection-timezone" problem={problem("timezone")} />
        </label>
        <label className="block text-sm">
          When the previous run is still going
          <select
            className={field}
            value={overlap}
            onChange={(e) => setOverlap(e.target.value === "queue" ? "queue" : "skip")}
          >
            <option value="skip">skip the tick (recorded)</option>
            <option value="queue">queue it until the run ends</option>
          </select>
        </label>
      </div>
      <label className="block text-sm">
        Ignore patterns (one regular expression a line, removed before comparing)
        <textarea
          className={`${field} font-mono`}
          rows={2}
          value={patterns}
          onChange={(e) => setPatterns(e.target.value)}
          {...problemProps("collection-patterns", patternProblems[0]?.[1])}
        />
        <FieldProblem id="collection-patterns" problem={patternProblems.map(([, m]) => m).join("; ") || undefined} />
      </label>
      <KeepBodiesField value={keepRuns} onChange={setKeepRuns} />
      <label className="block text-sm">
        URLs (one a line)
        <textarea
          className={`${field} font-mono`}
          rows={6}
          value={urls}
          onChange={(e) => setUrls(e.target.value)}
          {...problemProps("collection-urls", problem("urls"))}
        />
        <FieldProblem id="collection-urls" problem={problem("urls")} />
      </label>
      <section aria-label="Content checks" className={section}>
        <h3 className="text-sm font-semibold">Content checks</h3>
        <p className="text-sm text-slate-600">
          Every stored page is checked; one that fails is suspect and climbs the ladder below.
        </p>
        <ChecksEditor value={checks} onChange={setChecks} problem={problem} />
      </section>
      <section aria-label="Escalation ladder" className={section}>
        <h3 className="text-sm font-semibold">Escalation ladder</h3>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={escalate} onChange={(e) => setEscalate(e.target.checked)} />
          Send suspect or BLOCKED pages again at the next rung
        </label>
        <TokenEstimate urls={urlCount} ladder={rungs} per=" of a run" />
        {escalate && <LadderEditor rungs={rungs} onChange={setRungs} problem={problem} />}
        {!escalate && problem("escalation") && <p className="text-sm text-red-700">{problem("escalation")}</p>}
      </section>
      <section aria-label="Token caps" className={section}>
        <h3 className="text-sm font-semibold">Token caps</h3>
        <div className="flex flex-wrap gap-x-6 gap-y-3">
          <TokenCapField
            label="Per run"
            hint="no chunk or rung is sent past it"
            value={maxTokens}
            onChange={setMaxTokens}
            problem={problem("maxTokens")}
          />
          <TokenCapField
            label="Per month"
            hint={`all its runs; ${c.tokensThisMonth.toLocaleString("en")} spent this month`}
            value={monthly}
            onChange={setMonthly}
            problem={problem("monthlyMaxTokens")}
          />
        </div>
      </section>
      <Button type="submit" pending={pending} disabled={capsInvalid}>
        {existing ? "Save" : "Create collection"}
      </Button>
      {saved && <Notice tone="good">Saved: the next run uses it.</Notice>}
      {error !== null && <ErrorNotice title={existing ? "Not saved" : "Not created"} message={errorText(error)} />}
    </form>
  );
}
