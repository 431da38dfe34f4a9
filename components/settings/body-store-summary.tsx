import Link from "next/link";
import type { SettingsView } from "@/lib/settings";
import { formatBytes, formatCount } from "@/components/ui/figures";
import { Time } from "@/components/ui/time";

/** Where page bodies are kept, for how long, and what the last sweep counted there. */
export function BodyStoreSummary({ store }: { store: SettingsView["bodyStore"] }) {
  const c = store.census;
  const saved = c ? Math.max(0, c.rowsBytes - c.distinctBytes) : 0;
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2" data-testid="body-store">
      <div className="sm:col-span-2">
        <dt className="text-slate-600">Where (TALLY_BODY_STORE)</dt>
        <dd className="mt-0.5 break-all font-mono text-xs">{store.location}</dd>
      </div>
      <div>
        <dt className="text-slate-600">Retention (TALLY_RESULT_RETENTION_DAYS)</dt>
        <dd className="mt-0.5">
          {store.retentionDays === 0
            ? "bodies kept for ever"
            : `bodies removed after ${formatCount(store.retentionDays)} days; the rows, states and hashes stay`}
        </dd>
      </div>
      <div className="sm:col-span-2">
        <dt className="text-slate-600">Per collection (keep the bodies of its last N runs)</dt>
        <dd className="mt-0.5" data-testid="body-retention-collections">
          {store.collections.count === 0 ? (
            "none set: a collection may keep only its last runs' bodies (its form, or keepBodiesRuns in the API)"
          ) : (
            <>
              {formatCount(store.collections.count)} collection{store.collections.count === 1 ? "" : "s"} keep only
              their last runs&apos; bodies:{" "}
              {store.collections.first.map((c, i) => (
                <span key={c.id}>
                  {i > 0 && ", "}
                  <Link className="underline" href={`/collections/${encodeURIComponent(c.id)}`}>
                    {c.name}
                  </Link>{" "}
                  (last {formatCount(c.keepBodiesRuns)})
                </span>
              ))}
              {store.collections.count > store.collections.first.length && ", …"}
            </>
          )}
        </dd>
      </div>
      <div>
        <dt className="text-slate-600">Sweep of unreferenced bodies</dt>
        <dd className="mt-0.5">hourly, past a grace of {store.sweepGraceHours} h</dd>
      </div>
      {c ? (
        <>
          <div>
            <dt className="text-slate-600">Kept</dt>
            <dd className="mt-0.5 tabular-nums">
              {formatCount(c.objects)} objects, {formatBytes(c.storedBytes)} as stored (compressed)
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Saved by sharing</dt>
            <dd className="mt-0.5 tabular-nums">
              {formatBytes(saved)}
              <span className="block text-xs text-slate-500">
                the rows name {formatBytes(c.rowsBytes)} of bodies; {formatCount(c.referenced)} distinct bodies hold{" "}
                {formatBytes(c.distinctBytes)} (before compression)
              </span>
            </dd>
          </div>
          <div className="text-xs text-slate-500 sm:col-span-2">
            <dt className="inline">Counted</dt>{" "}
            <dd className="inline">
              by the last sweep, <Time iso={c.countedAt} relative />.
            </dd>
          </div>
        </>
      ) : (
        <div className="text-slate-600 sm:col-span-2">
          <dt className="inline">Counted</dt>{" "}
          <dd className="inline">
            not yet: the hourly sweep counts the store (or <code>POST /api/cron/bodies-sweep</code>).
          </dd>
        </div>
      )}
    </dl>
  );
}
