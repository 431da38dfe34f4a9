"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { Button } from "@/components/ui/button";

// The filter lives in the URL so a view can be shared. Times are typed in the operator's zone and
// sent as ISO instants, so the server never guesses a zone.

const STATUSES = ["queued", "processing", "completed", "failed", "cancelled", "unknown"];
const OUTCOMES = ["pending", "stored", "resubmitted", "dead_lettered", "cancelled"];
const KINDS = ["extract", "batch", "crawl"];
const field = "rounded border border-slate-300 bg-white px-2 py-1.5 text-sm";

function toLocalInput(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

function Select({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string | undefined;
  options: string[];
}) {
  return (
    <label className="flex flex-col text-xs font-medium text-slate-700">
      {label}
      <select name={name} defaultValue={value ?? ""} className={field}>
        <option value="">any</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o.replace("_", " ")}
          </option>
        ))}
      </select>
    </label>
  );
}

export function JobFilters({ params }: { params: Record<string, string> }) {
  const router = useRouter();
  const [navigating, start] = useTransition();

  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const next = new URLSearchParams();
    for (const [k, v] of form.entries()) {
      if (typeof v !== "string" || v.trim() === "") continue;
      if (k === "from" || k === "to") {
        const d = new Date(v);
        if (!Number.isNaN(d.getTime())) next.set(k, d.toISOString());
      } else next.set(k, v.trim());
    }
    const qs = next.toString();
    start(() => router.push(qs ? `/jobs?${qs}` : "/jobs"));
  }

  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-3" aria-label="Filter jobs">
      <label className="flex min-w-56 flex-1 flex-col text-xs font-medium text-slate-700">
        Search job id or URL
        <input
          name="q"
          type="search"
          defaultValue={params.q ?? ""}
          className={field}
          placeholder="job id, or a URL’s start (https:// optional)"
        />
      </label>
      <Select name="status" label="Platform status" value={params.status} options={STATUSES} />
      <Select name="outcome" label="Outcome" value={params.outcome} options={OUTCOMES} />
      <Select name="kind" label="Kind" value={params.kind} options={KINDS} />
      <label className="flex flex-col text-xs font-medium text-slate-700">
        From
        <input
          name="from"
          type="datetime-local"
          defaultValue={toLocalInput(params.from)}
          className={field}
          suppressHydrationWarning
        />
      </label>
      <label className="flex flex-col text-xs font-medium text-slate-700">
        To
        <input
          name="to"
          type="datetime-local"
          defaultValue={toLocalInput(params.to)}
          className={field}
          suppressHydrationWarning
        />
      </label>
      <label className="flex flex-col text-xs font-medium text-slate-700">
        Order
        <select name="sort" defaultValue={params.sort ?? "newest"} className={field}>
          <option value="newest">newest first</option>
          <option value="oldest">oldest first</option>
        </select>
      </label>
      <Button type="submit" pending={navigating} pendingLabel="Loading…">
        Apply
      </Button>
      <Link href="/jobs" className="py-1.5 text-sm text-slate-700 underline">
        Reset
      </Link>
    </form>
  );
}
