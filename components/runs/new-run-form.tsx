"use client";

import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { errorText, fieldProblems } from "@/lib/browser/client";
import { parseText } from "@/lib/runs/client";
import { ChecksEditor } from "@/components/content-checks/checks-editor";
import { capOf, checksDraftOf, checksOfDraft, ladderOf } from "@/components/content-checks/drafts";
import { LadderEditor } from "@/components/content-checks/ladder-editor";
import { TokenCapField } from "@/components/content-checks/token-cap-field";
import { TokenEstimate } from "@/components/content-checks/token-estimate";
import { Button } from "@/components/ui/button";
import { ErrorNotice, Notice } from "@/components/ui/feedback";
import { Time } from "@/components/ui/time";
import { useDraft } from "@/components/ui/use-draft";
import { useCreateRun } from "./use-runs";

// Paste a list or pick a file; Tally checks it here first (the same checks the server makes), shows
// how many URLs, duplicates and invalid lines it holds, and creates the run only when confirmed.

const MAX_FILE_BYTES = 32 * 1024 * 1024;
/** A list longer than this is shown as a summary, not in the box: a browser slows down editing
 *  megabytes of text, and one keystroke in a box holding a whole list would replace it. */
const LARGE_LIST_CHARS = 200_000;

type RunDraft = { name: string; text: string; csv: boolean; cap: string };
const emptyDraft = (d: RunDraft) => d.name.trim() === "" && d.text.trim() === "" && d.cap.trim() === "";
const fmt = (n: number) => n.toLocaleString("en");
const sizeOf = (chars: number) =>
  chars >= 1_000_000 ? `${(chars / 1_000_000).toFixed(1)} MB` : `${fmt(Math.ceil(chars / 1000))} KB`;

/** A list too large for the box: its size, where it came from, and what can be done with it. */
function LargeList({
  text,
  source,
  onEdit,
  onClear,
}: {
  text: string;
  source: string;
  onEdit: () => void;
  onClear: () => void;
}) {
  const lines = useMemo(() => text.split("\n").length, [text]);
  const here = useRef<HTMLDivElement>(null);
  // The box it replaces had the focus (a paste): the focus stays in this place.
  useEffect(() => here.current?.focus(), []);
  return (
    <div
      ref={here}
      tabIndex={-1}
      role="group"
      aria-label="The list of URLs"
      className="mt-1 space-y-2 rounded border border-slate-300 bg-slate-50 p-3"
      data-testid="large-list"
    >
      <p className="text-sm text-slate-800">
        A list of <strong>{fmt(lines)}</strong> lines ({sizeOf(text.length)}), {source}. It is too large to edit
        comfortably here: it is kept whole, and the preview below counts it.
      </p>
      <div className="flex flex-wrap gap-2">
        <button type="button" onClick={onEdit} className="rounded border border-slate-300 bg-white px-2 py-1 text-sm">
          Edit as text
        </button>
        <button type="button" onClick={onClear} className="rounded border border-slate-300 bg-white px-2 py-1 text-sm">
          Clear the list
        </button>
      </div>
    </div>
  );
}

export function NewRunForm({ maxUrls }: { maxUrls: number }) {
  const router = useRouter();
  const create = useCreateRun();
  const [name, setName] = useState("");
  const [text, setText] = useState("");
  const [csv, setCsv] = useState(false);
  const [fileNote, setFileNote] = useState<string | null>(null);
  const [source, setSource] = useState("pasted");
  const [editLarge, setEditLarge] = useState(false);
  const draft = useDraft<RunDraft>("new-run", emptyDraft);
  const [ignoreInvalid, setIgnoreInvalid] = useState(false);
  const [cap, setCap] = useState("");
  // The default checks and ladder (what the server fills in when none are sent), editable below.
  const [checks, setChecks] = useState(() => checksDraftOf(null));
  const [rungs, setRungs] = useState(() => ladderOf(null));
  const [escalate, setEscalate] = useState(true);
  const ladder = escalate ? rungs : rungs.slice(0, 1);
  const problems = fieldProblems(create.error);
  const problem = (path: string) => problems.get(path);
  const { value: capValue, invalid: capInvalid } = capOf(cap);
  const maxTokens = capValue ?? undefined;
  const preview = useMemo(() => (text.trim() ? parseText(text, csv ? "csv" : "lines") : null), [text, csv]);
  const urls = preview?.urls.length ?? 0;
  const overCap = maxTokens !== undefined && urls > maxTokens;
  const overLimit = urls > maxUrls;
  const blocked =
    !preview || urls === 0 || (preview.invalid > 0 && !ignoreInvalid) || capInvalid || overCap || overLimit;
  const { keep } = draft;
  useEffect(() => keep({ name, text, csv, cap }), [keep, name, text, csv, cap]);
  const restoreDraft = () => {
    const d = draft.restore();
    if (!d) return;
    setName(d.name);
    setText(d.text);
    setCsv(d.csv);
    setCap(d.cap);
    setSource("from your draft");
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setFileNote(`${file.name} is larger than 32 MB`);
      return;
    }
    setCsv(/\.csv$/i.test(file.name) || file.type === "text/csv");
    setText(await file.text());
    setEditLarge(false);
    setSource(`from ${file.name}`);
    setFileNote(`${file.name} (${Math.ceil(file.size / 1024).toLocaleString("en")} KB)`);
  };

  return (
    <form
      className="max-w-3xl space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (blocked) return;
        create.mutate(
          {
            text,
            csv,
            name: name.trim() || undefined,
            ignoreInvalid,
            maxTokens,
            checks: checksOfDraft(checks),
            escalation: ladder,
          },
          {
            onSuccess: (run) => {
              draft.forget();
              router.push(`/runs/${run.id}`);
            },
          },
        );
      }}
    >
      {draft.offered && (
        <Notice>
          <span data-testid="draft-offer">
            You have a draft of this form from <Time iso={draft.offered.savedAt} /> (kept in this browser).{" "}
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
      <label className="block text-sm">
        <span className="font-medium">Name</span> <span className="text-slate-500">(optional)</span>
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={200}
          placeholder="daily"
          className="mt-1 block w-full rounded border border-slate-300 px-2 py-1.5"
        />
      </label>
      {text.length > LARGE_LIST_CHARS && !editLarge ? (
        <div className="text-sm">
          <span className="font-medium">URLs</span>
          <LargeList
            text={text}
            source={source}
            onEdit={() => setEditLarge(true)}
            onClear={() => {
              setText("");
              setFileNote(null);
              setSource("pasted");
            }}
          />
        </div>
      ) : (
        <label className="block text-sm">
          <span className="font-medium">URLs</span>{" "}
          <span className="text-slate-500">one a line, or the first column of a CSV (header optional)</span>
          <textarea
            value={text}
            placeholder="https://example.com/page-1"
            onChange={(e) => {
              setText(e.target.value);
              setFileNote(null);
              if (!editLarge) setSource("pasted");
            }}
            rows={10}
            spellCheck={false}
            className="mt-1 block w-full rounded border border-slate-300 px-2 py-1.5 font-mono text-xs"
          />
        </label>
      )}
      <TokenCapField
        label="Token cap"
        hint="optional: no chunk or rung is sent past it"
        value={cap}
        onChange={setCap}
        problem={problem("maxTokens")}
      />
      <details className="rounded-lg border border-slate-200 bg-white p-4" open={problems.size > 0 || undefined}>
        <summary className="cursor-pointer text-sm font-medium">
          Content checks and escalation{" "}
          <span className="font-normal text-slate-500">
            (what a stored page must satisfy; {escalate ? `${rungs.length} rungs` : "no escalation"})
          </span>
        </summary>
        <div className="mt-3 space-y-4">
          <section aria-label="Content checks" className="space-y-2">
            <h3 className="text-sm font-semibold">Content checks</h3>
            <p className="text-sm text-slate-600">
              Every stored page is checked; one that fails is suspect and climbs the ladder below.
            </p>
            <ChecksEditor value={checks} onChange={setChecks} problem={problem} />
          </section>
          <section aria-label="Escalation ladder" className="space-y-2 border-t border-slate-200 pt-4">
            <h3 className="text-sm font-semibold">Escalation ladder</h3>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={escalate} onChange={(e) => setEscalate(e.target.checked)} />
              Send suspect or BLOCKED pages again at the next rung
            </label>
            {escalate && <LadderEditor rungs={rungs} onChange={setRungs} problem={problem} />}
            {problem("escalation") && <p className="text-sm text-red-700">{problem("escalation")}</p>}
          </section>
        </div>
      </details>
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <label className="cursor-pointer rounded border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-100">
          Upload a file…
          <input
            type="file"
            accept=".txt,.csv,text/plain,text/csv"
            className="sr-only"
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
        </label>
        {fileNote && <span className="text-slate-600">{fileNote}</span>}
        <label className="flex items-center gap-1.5">
          <input type="checkbox" checked={csv} onChange={(e) => setCsv(e.target.checked)} /> CSV
        </label>
      </div>

      {preview && (
        <section aria-label="Preview" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
          <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            <div>
              <dt className="text-slate-600">URLs</dt>
              <dd className={`text-lg font-semibold tabular-nums ${overLimit ? "text-red-700" : ""}`}>
                {fmt(urls)}
                <span className="block text-xs font-normal text-slate-600">of {fmt(maxUrls)} a run may hold</span>
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">Duplicates</dt>
              <dd className="text-lg font-semibold tabular-nums">{preview.duplicates.toLocaleString("en")}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Invalid lines</dt>
              <dd className={`text-lg font-semibold tabular-nums ${preview.invalid > 0 ? "text-red-700" : ""}`}>
                {preview.invalid.toLocaleString("en")}
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">Platform batches</dt>
              <dd className="text-lg font-semibold tabular-nums">{Math.ceil(preview.urls.length / 1000)}</dd>
            </div>
          </dl>
          <div className="mt-3">
            <TokenEstimate urls={urls} ladder={ladder} />
          </div>
          {overLimit && (
            <p className="mt-2 text-red-700" data-testid="over-limit">
              {fmt(urls)} URLs is over the {fmt(maxUrls)} a run may hold: remove {fmt(urls - maxUrls)}, or split the
              list into runs of up to {fmt(maxUrls)}. (An admin sets the limit: TALLY_RUN_MAX_URLS.)
            </p>
          )}
          {overCap && (
            <p className="mt-2 text-red-700">
              The estimate ({urls.toLocaleString("en")} tokens) is over the cap of {maxTokens?.toLocaleString("en")}:
              the server would refuse the run.
            </p>
          )}
          {preview.invalid > 0 && (
            <div className="mt-3 space-y-2">
              <ul
                className="max-h-48 overflow-auto rounded bg-red-50 p-2 font-mono text-xs text-red-900"
                tabIndex={0}
                aria-label="Lines that are not URLs"
              >
                {preview.invalidLines.map((l) => (
                  <li key={l.line} className="break-all">
                    line {l.line}: {l.value} — {l.reason}
                  </li>
                ))}
                {preview.invalid > preview.invalidLines.length && (
                  <li>… and {preview.invalid - preview.invalidLines.length} more</li>
                )}
              </ul>
              <label className="flex items-center gap-1.5">
                <input type="checkbox" checked={ignoreInvalid} onChange={(e) => setIgnoreInvalid(e.target.checked)} />
                Skip the invalid lines and create the run with the valid URLs
              </label>
            </div>
          )}
        </section>
      )}
      {preview && preview.urls.length === 0 && <Notice tone="warn">The list holds no valid URL.</Notice>}
      {create.error && <ErrorNotice title="The run was not created" message={errorText(create.error)} />}
      <Button type="submit" disabled={blocked} pending={create.isPending} pendingLabel="Creating…">
        {preview && preview.urls.length > 0
          ? `Create the run with ${preview.urls.length.toLocaleString("en")} URLs`
          : "Create the run"}
      </Button>
    </form>
  );
}
