"use client";

import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { errorText, fieldProblems } from "@/lib/browser/client";
import { parseText } from "@/lib/runs/client";
import { ChecksEditor } from "@/components/content-checks/checks-editor";
import { capOf, checksDraftOf, checksOfDraft, ladderOf } from "@/components/content-checks/drafts";
import { LadderEditor } from "@/components/content-checks/ladder-editor";
import { TokenCapField } from "@/components/content-checks/token-cap-field";
import { TokenEstimate } from "@/components/content-checks/token-estimate";
import { Button } from "@/components/ui/button";
import { ErrorNotice, Notice } from "@/components/ui/feedback";
import { useCreateRun } from "./use-runs";

// Paste a list or pick a file; Tally checks it here first (the same checks the server makes), shows
// how many URLs, duplicates and invalid lines it holds, and creates the run only when confirmed.

const MAX_FILE_BYTES = 32 * 1024 * 1024;

export function NewRunForm() {
  const router = useRouter();
  const create = useCreateRun();
  const [name, setName] = useState("");
  const [text, setText] = useState("");
  const [csv, setCsv] = useState(false);
  const [fileNote, setFileNote] = useState<string | null>(null);
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
  const blocked = !preview || urls === 0 || (preview.invalid > 0 && !ignoreInvalid) || capInvalid || overCap;

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setFileNote(`${file.name} is larger than 32 MB`);
      return;
    }
    setCsv(/\.csv$/i.test(file.name) || file.type === "text/csv");
    setText(await file.text());
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
          { onSuccess: (run) => router.push(`/runs/${run.id}`) },
        );
      }}
    >
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
      <label className="block text-sm">
        <span className="font-medium">URLs</span>{" "}
        <span className="text-slate-500">one a line, or the first column of a CSV (header optional)</span>
        <textarea
          value={text.length > 200_000 ? "" : text}
          placeholder={text.length > 200_000 ? "A large list is loaded from the file." : "https://example.com/page-1"}
          onChange={(e) => {
            setText(e.target.value);
            setFileNote(null);
          }}
          rows={10}
          spellCheck={false}
          className="mt-1 block w-full rounded border border-slate-300 px-2 py-1.5 font-mono text-xs"
        />
      </label>
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
              <dd className="text-lg font-semibold tabular-nums">{preview.urls.length.toLocaleString("en")}</dd>
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
