import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { Can } from "@/components/auth/role-context";
import { PageHeader } from "@/components/empty-state";
import { CollectionActions } from "@/components/collections/collection-actions";
import { CollectionForm } from "@/components/collections/collection-form";
import { ChangeCounts, RunsChart } from "@/components/collections/runs-chart";
import { UrlHistory } from "@/components/collections/url-history";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Time } from "@/components/ui/time";
import { getCollection } from "@/lib/collections";
import { NotFound } from "@/lib/errors";
import { ScrollRegion } from "@/components/ui/table";

export const metadata: Metadata = { title: "Collection" };
export const dynamic = "force-dynamic";

/** The edit form carries the list itself up to this size; a longer list is replaced through the API. */
const EDITABLE_URLS = 5000;

export default async function Page({
  params,
  searchParams,
}: {
  params: Promise<{ collectionId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const id = z
    .string()
    .min(1)
    .max(100)
    .safeParse((await params).collectionId);
  if (!id.success) notFound();
  const first = await getCollection(id.data).catch((err: unknown) => {
    if (err instanceof NotFound) notFound();
    throw err;
  });
  const c = first.urlCount <= EDITABLE_URLS ? await getCollection(id.data, { withUrls: true }) : first;
  // ?url=… opens that URL's history (a link from elsewhere); the card checks it through the API.
  const historyUrl = z
    .string()
    .trim()
    .min(1)
    .max(4096)
    .safeParse((await searchParams).url);
  return (
    <div className="min-w-0 space-y-4">
      <Link href="/collections" className="text-sm text-brand-600 underline">
        ← Collections
      </Link>
      <PageHeader title={c.name}>{c.paused && <Badge tone="warn">paused</Badge>}</PageHeader>
      <Card title="Schedule">
        <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-4">
          <div>
            <dt className="text-xs text-slate-600">Runs</dt>
            <dd>{c.scheduleText ?? "manual only"}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-600">Next run</dt>
            <dd>{c.paused ? "paused" : <Time iso={c.nextRunAt} />}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-600">URLs</dt>
            <dd className="tabular-nums">{c.urlCount.toLocaleString("en")}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-600">While a run is going</dt>
            <dd>{c.overlap === "queue" ? "a tick waits for it" : "a tick is skipped"}</dd>
          </div>
        </dl>
        <Can role="operator">
          <div className="mt-4">
            <CollectionActions id={c.id} paused={c.paused} />
          </div>
        </Can>
      </Card>
      <Card title="Runs">
        <RunsChart runs={c.runs} />
        <ScrollRegion label="Runs of the collection" className="mt-3">
          <table className="w-full min-w-[36rem] text-left text-sm">
            <thead className="text-xs uppercase text-slate-600">
              <tr>
                <th className="py-1 pr-3">Started</th>
                <th className="py-1 pr-3">By</th>
                <th className="py-1 pr-3">State</th>
                <th className="py-1">Changes</th>
              </tr>
            </thead>
            <tbody>
              {c.runs.map((r) => (
                <tr key={r.id} className="border-t border-slate-100">
                  <td className="py-1 pr-3">
                    <Link href={`/runs/${r.id}`} className="underline">
                      <Time iso={r.createdAt} />
                    </Link>
                  </td>
                  <td className="py-1 pr-3">{r.trigger}</td>
                  <td className="py-1 pr-3">{r.state}</td>
                  <td className="py-1">
                    <ChangeCounts changes={r.changes} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </Card>
      <Card title="URL history">
        <UrlHistory
          id={c.id}
          urls={c.urls === undefined ? [] : c.urls.split("\n").filter((u) => u !== "")}
          initialUrl={historyUrl.success ? historyUrl.data : undefined}
        />
      </Card>
      {c.ticks.some((t) => t.outcome !== "started") && (
        <Card title="Ticks not run at once">
          <ul className="space-y-1 text-sm">
            {c.ticks
              .filter((t) => t.outcome !== "started")
              .map((t) => (
                <li key={t.scheduledFor}>
                  <Time iso={t.scheduledFor} /> — {t.outcome}: <span className="break-words">{t.reason}</span>
                </li>
              ))}
          </ul>
        </Card>
      )}
      <Can role="operator">
        <Card title="Edit list, schedule, checks and caps">
          {c.urls !== undefined ? (
            <CollectionForm c={c} />
          ) : (
            <p className="text-sm text-slate-600">
              This list has {c.urlCount.toLocaleString("en")} URLs: replace it with{" "}
              <code>POST /api/collections/{c.id}</code> and a text/plain body.
            </p>
          )}
        </Card>
      </Can>
    </div>
  );
}
