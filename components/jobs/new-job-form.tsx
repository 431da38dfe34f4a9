"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { ApiError, errorText } from "@/lib/browser/client";
import { Button } from "@/components/ui/button";
import { ErrorNotice } from "@/components/ui/feedback";
import { useSubmitJob } from "./use-submit-job";

// Submits an extract, batch or crawl job through POST /api/jobs. The messages under the fields are
// the API's own: the route parses the body with the same zod schemas as every other caller, and its
// 400 lists each issue with its path (`url`, `urls.2`, `depth`), which is shown beside that field.

type Kind = "extract" | "batch" | "crawl";
const KINDS: Array<{ kind: Kind; label: string; hint: string }> = [
  { kind: "extract", label: "Extract", hint: "one page" },
  { kind: "batch", label: "Batch", hint: "a list of pages" },
  { kind: "crawl", label: "Crawl", hint: "a site from a seed page" },
];
const field = "w-full rounded border border-slate-300 bg-white px-2 py-1.5 text-sm aria-[invalid=true]:border-red-500";

type Issue = { path: string; message: string };

function issuesOf(err: unknown): Issue[] {
  if (!(err instanceof ApiError) || !err.body || typeof err.body !== "object" || !("details" in err.body)) return [];
  const details = (err.body as { details: unknown }).details;
  if (!Array.isArray(details)) return [];
  return details.flatMap((d: unknown) =>
    d &&
    typeof d === "object" &&
    "path" in d &&
    "message" in d &&
    typeof d.path === "string" &&
    typeof d.message === "string"
      ? [{ path: d.path, message: d.message }]
      : [],
  );
}

/** Messages for one field: its own path, or an element of it (`urls.2` → "line 3: …"). */
function messagesFor(issues: Issue[], name: string): string[] {
  return issues.flatMap((i) => {
    if (i.path === name) return [i.message];
    const m = new RegExp(`^${name}\\.(\\d+)`).exec(i.path);
    return m ? [`line ${Number(m[1]) + 1}: ${i.message}`] : [];
  });
}

function FieldError({ id, messages }: { id: string; messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <p id={id} className="mt-1 text-xs text-red-700" data-testid="field-error">
      {messages.join("; ")}
    </p>
  );
}

const numberOrUndefined = (v: string) => (v.trim() === "" ? undefined : Number(v));

export function NewJobForm() {
  const id = useId();
  const router = useRouter();
  const submit = useSubmitJob();
  const [kind, setKind] = useState<Kind>("extract");
  const issues = issuesOf(submit.error);
  const known = new Set(["url", "urls", "depth", "limit", "formats"]);
  const onFields = issues.filter((i) => known.has(i.path.split(".")[0] ?? "")).length > 0;

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const formats = f.getAll("formats").filter((v): v is string => typeof v === "string");
    const text = (k: string) => String(f.get(k) ?? "").trim();
    const body: Record<string, unknown> = { kind, formats, render_js: f.get("render_js") === "on" };
    if (kind === "batch")
      body.urls = text("urls")
        .split(/\r?\n/)
        .map((u) => u.trim())
        .filter(Boolean);
    else body.url = text("url");
    if (kind === "crawl") {
      body.depth = numberOrUndefined(text("depth"));
      body.limit = numberOrUndefined(text("limit"));
      body.same_domain_only = f.get("same_domain_only") === "on";
    }
    submit.mutate(body, { onSuccess: (job) => router.push(`/jobs/${encodeURIComponent(job.jobId)}`) });
  }

  const invalid = (name: string) => messagesFor(issues, name).length > 0;
  const describe = (name: string) => (invalid(name) ? `${id}-${name}-error` : undefined);

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="max-w-2xl space-y-5 rounded-lg border border-slate-200 bg-white p-4"
    >
      <fieldset>
        <legend className="text-sm font-medium">Kind</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-3">
          {KINDS.map((k) => (
            <label
              key={k.kind}
              className={`flex cursor-pointer flex-col rounded border p-2 text-sm ${kind === k.kind ? "border-brand-600 bg-sky-50" : "border-slate-300"}`}
            >
              <span className="flex items-center gap-2">
                <input
                  type="radio"
                  name="kind"
                  value={k.kind}
                  checked={kind === k.kind}
                  onChange={() => {
                    setKind(k.kind);
                    submit.reset();
                  }}
                />
                {k.label}
              </span>
              <span className="text-xs text-slate-600">{k.hint}</span>
            </label>
          ))}
        </div>
      </fieldset>

      {kind === "batch" ? (
        <div>
          <label htmlFor={`${id}-urls`} className="text-sm font-medium">
            URLs, one a line
          </label>
          <textarea
            id={`${id}-urls`}
            name="urls"
            rows={5}
            className={`${field} font-mono`}
            aria-invalid={invalid("urls")}
            aria-describedby={describe("urls")}
            placeholder={"https://example.com/a\nhttps://example.com/b"}
          />
          <FieldError id={`${id}-urls-error`} messages={messagesFor(issues, "urls")} />
        </div>
      ) : (
        <div>
          <label htmlFor={`${id}-url`} className="text-sm font-medium">
            {kind === "crawl" ? "Seed URL" : "URL"}
          </label>
          <input
            id={`${id}-url`}
            name="url"
            type="url"
            inputMode="url"
            className={field}
            aria-invalid={invalid("url")}
            aria-describedby={describe("url")}
            placeholder="https://example.com/page"
          />
          <FieldError id={`${id}-url-error`} messages={messagesFor(issues, "url")} />
        </div>
      )}

      {kind === "crawl" && (
        <div className="grid gap-4 sm:grid-cols-3">
          <div>
            <label htmlFor={`${id}-depth`} className="text-sm font-medium">
              Depth
            </label>
            <input
              id={`${id}-depth`}
              name="depth"
              inputMode="numeric"
              className={field}
              placeholder="2"
              aria-invalid={invalid("depth")}
              aria-describedby={describe("depth")}
            />
            <FieldError id={`${id}-depth-error`} messages={messagesFor(issues, "depth")} />
          </div>
          <div>
            <label htmlFor={`${id}-limit`} className="text-sm font-medium">
              Page limit
            </label>
            <input
              id={`${id}-limit`}
              name="limit"
              inputMode="numeric"
              className={field}
              placeholder="100"
              aria-invalid={invalid("limit")}
              aria-describedby={describe("limit")}
            />
            <FieldError id={`${id}-limit-error`} messages={messagesFor(issues, "limit")} />
          </div>
          <label className="flex items-center gap-2 self-end pb-2 text-sm">
            <input type="checkbox" name="same_domain_only" defaultChecked /> Same domain only
          </label>
        </div>
      )}

      <fieldset>
        <legend className="text-sm font-medium">Formats</legend>
        <div className="mt-1 flex gap-4 text-sm">
          <label className="flex items-center gap-2">
            <input type="checkbox" name="formats" value="markdown" defaultChecked /> Markdown
          </label>
          <label className="flex items-center gap-2">
            <input type="checkbox" name="formats" value="html" /> HTML
          </label>
        </div>
        <FieldError id={`${id}-formats-error`} messages={messagesFor(issues, "formats")} />
      </fieldset>

      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="render_js" /> Render JavaScript
      </label>

      {submit.error && !onFields && <ErrorNotice title="The job was not submitted" message={errorText(submit.error)} />}
      {submit.error && onFields && (
        <p role="alert" className="text-sm text-red-700">
          The job was not submitted: correct the fields marked above.
        </p>
      )}
      <Button type="submit" pending={submit.isPending} pendingLabel="Submitting…">
        Submit {kind} job
      </Button>
    </form>
  );
}
