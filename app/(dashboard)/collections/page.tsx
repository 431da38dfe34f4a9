import type { Metadata } from "next";
import Link from "next/link";
import { Can } from "@/components/auth/role-context";
import { PageHeader, EmptyState } from "@/components/empty-state";
import { ChangeCounts } from "@/components/collections/runs-chart";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Time } from "@/components/ui/time";
import { listCollections } from "@/lib/collections";
import { ScrollRegion } from "@/components/ui/table";

export const metadata: Metadata = { title: "Collections" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const { items } = await listCollections({ limit: 100 });
  return (
    <>
      <PageHeader title="Collections">
        <Can role="operator">
          <Link
            href="/collections/new"
            className="rounded bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
          >
            New collection
          </Link>
        </Can>
      </PageHeader>
      <p className="-mt-2 mb-4 max-w-3xl text-sm text-slate-600">
        A collection is a saved list of URLs that runs by itself on a schedule. Each run is compared with the one
        before: which pages are new, which changed, which are gone. Make one with New collection, or through{" "}
        <code>POST /api/collections</code>.
      </p>
      {items.length === 0 ? (
        <EmptyState title="No collections yet">
          Save a list of URLs with a schedule, or none to run it by hand:{" "}
          <Link href="/collections/new" className="text-brand-600 underline">
            New collection
          </Link>
          .
        </EmptyState>
      ) : (
        <Card>
          <ScrollRegion label="Collections">
            <table className="w-full min-w-[44rem] text-left text-sm">
              <thead className="text-xs uppercase text-slate-600">
                <tr>
                  <th className="py-2 pr-3">Name</th>
                  <th className="py-2 pr-3 text-right">URLs</th>
                  <th className="py-2 pr-3">Schedule</th>
                  <th className="py-2 pr-3">Next run</th>
                  <th className="py-2 pr-3">Last run</th>
                  <th className="py-2">Changes</th>
                </tr>
              </thead>
              <tbody>
                {items.map((c) => (
                  <tr key={c.id} className="border-t border-slate-100 align-top">
                    <td className="py-2 pr-3">
                      <Link href={`/collections/${c.id}`} className="font-medium text-brand-600 underline">
                        {c.name}
                      </Link>
                    </td>
                    <td className="py-2 pr-3 text-right tabular-nums">{c.urlCount.toLocaleString("en")}</td>
                    <td className="py-2 pr-3">
                      {c.scheduleText ?? <span className="text-slate-500">manual only</span>}
                      {c.paused && (
                        <>
                          {" "}
                          <Badge tone="warn">paused</Badge>
                        </>
                      )}
                    </td>
                    <td className="py-2 pr-3">
                      <Time iso={c.nextRunAt} />
                    </td>
                    <td className="py-2 pr-3">
                      {c.lastRun ? (
                        <Link href={`/runs/${c.lastRun.id}`} className="underline">
                          {c.lastRun.state}: {c.lastRun.counts.stored.toLocaleString("en")} stored,{" "}
                          {c.lastRun.counts.failed.toLocaleString("en")} failed
                        </Link>
                      ) : (
                        <span className="text-slate-500">none yet</span>
                      )}
                    </td>
                    <td className="py-2">
                      <ChangeCounts changes={c.lastRun?.changes ?? null} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </Card>
      )}
    </>
  );
}
