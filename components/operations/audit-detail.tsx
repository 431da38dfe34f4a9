import { ShortId } from "@/components/ui/short-id";
import { humanize } from "./run-facts";

// An audit row's detail (JSON text written by lib/audit/audit.ts) as labelled fields: ids short
// with the full id on hover, a run id linked to its run page; text that is not JSON is shown as it is.

const UUIDISH = /^[0-9a-f]{8}-[0-9a-f]{4}-/i;

function parse(detail: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(detail);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function Value({ name, value }: { name: string; value: unknown }) {
  if (typeof value === "string" && name === "runId")
    return <ShortId id={value} href={`/operations/${encodeURIComponent(value)}`} />;
  if (typeof value === "string" && name === "jobId")
    return <ShortId id={value} href={`/jobs/${encodeURIComponent(value)}`} />;
  if (typeof value === "string" && UUIDISH.test(value)) return <ShortId id={value} />;
  if (typeof value === "boolean") return <>{value ? "yes" : "no"}</>;
  if (value === null) return <>—</>;
  if (typeof value === "string" || typeof value === "number") return <>{String(value)}</>;
  if (Array.isArray(value))
    return (
      <>{value.length === 0 ? "none" : value.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ")}</>
    );
  return <>{JSON.stringify(value)}</>;
}

export function AuditDetail({ detail }: { detail: string | null }) {
  if (!detail) return null;
  const fields = parse(detail);
  if (!fields) return <span className="break-words">{detail}</span>;
  return (
    <dl className="flex flex-wrap gap-x-3 gap-y-0.5">
      {Object.entries(fields).map(([k, v]) => (
        <div key={k} className="flex min-w-0 gap-1">
          <dt className="text-slate-500">{humanize(k)}</dt>
          <dd className="min-w-0 break-words text-slate-800">
            <Value name={k} value={v} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The target column: a job or run id linked, another id shortened. */
export function AuditTarget({ action, target }: { action: string; target: string | null }) {
  if (!target) return <>—</>;
  if (action.startsWith("job.")) return <ShortId id={target} href={`/jobs/${encodeURIComponent(target)}`} />;
  if (UUIDISH.test(target)) return <ShortId id={target} />;
  return <span className="break-words">{target}</span>;
}
