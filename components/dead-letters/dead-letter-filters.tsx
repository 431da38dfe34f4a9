import Link from "next/link";
import type { DeadLetterFilter } from "@/lib/dead-letters";

// A plain GET form: the filter lives in the URL (shareable, back button works) and needs no script.

const field = "rounded border border-slate-300 bg-white px-2 py-1.5 text-sm";

export function DeadLetterFilters({
  filter,
  kinds,
  errorCodes,
}: {
  filter: DeadLetterFilter;
  kinds: string[];
  errorCodes: string[];
}) {
  return (
    <form
      method="get"
      action="/dead-letters"
      className="flex flex-wrap items-end gap-3"
      aria-label="Filter dead letters"
    >
      <label className="flex flex-col text-xs font-medium text-slate-700">
        State
        <select name="state" defaultValue={filter.state} className={field}>
          <option value="open">open</option>
          <option value="retried">retried</option>
          <option value="discarded">discarded</option>
          <option value="all">all</option>
        </select>
      </label>
      <label className="flex flex-col text-xs font-medium text-slate-700">
        Kind
        <select name="kind" defaultValue={filter.kind ?? ""} className={field}>
          <option value="">any</option>
          {kinds.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col text-xs font-medium text-slate-700">
        Error code
        <select name="errorCode" defaultValue={filter.errorCode ?? ""} className={field}>
          <option value="">any</option>
          {errorCodes.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col text-xs font-medium text-slate-700">
        Job id
        <input name="jobId" defaultValue={filter.jobId ?? ""} className={`${field} w-56`} placeholder="exact job id" />
      </label>
      <button
        type="submit"
        className="rounded bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700"
      >
        Apply
      </button>
      <Link href="/dead-letters" className="py-1.5 text-sm text-slate-700 underline">
        Reset
      </Link>
    </form>
  );
}
