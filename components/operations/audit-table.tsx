"use client";

import { errorText } from "@/lib/browser/parsed";
import { Badge } from "@/components/ui/badge";
import { CursorPager, useCursorStack } from "@/components/ui/cursor-pager";
import { ErrorNotice } from "@/components/ui/feedback";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { AuditDetail, AuditTarget } from "./audit-detail";
import { useAuditLog } from "./use-audit-log";

/** Who did what: every operator action of every page lands here. */
export function AuditTable() {
  const pages = useCursorStack("audit");
  const { data, error } = useAuditLog({ cursor: pages.cursor });
  return (
    <div>
      {error && <ErrorNotice title="Could not load the audit log" message={errorText(error)} />}
      <Table caption="Operator actions, newest first">
        <thead>
          <tr><Th className="max-sm:hidden">When</Th><Th className="max-sm:hidden">Who</Th><Th>Action</Th><Th className="max-sm:hidden">Target</Th><Th>Result</Th><Th className="max-sm:hidden">Detail</Th></tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {data?.items.map((a) => (
            <tr key={a.id}>
              <Td className="whitespace-nowrap max-sm:hidden"><Time iso={a.at} /></Td>
              <Td className="max-sm:hidden">{a.actor}</Td>
              <Td className="font-mono text-xs">{a.action}</Td>
              <Td className="text-xs max-sm:hidden"><AuditTarget action={a.action} target={a.target} /></Td>
              <Td><Badge tone={a.ok ? "good" : "bad"}>{a.ok ? "ok" : "failed"}</Badge></Td>
              <Td className="max-w-md text-xs max-sm:hidden"><AuditDetail detail={a.detail} /></Td>
            </tr>
          ))}
          {data && data.items.length === 0 && <EmptyRow colSpan={6}>No operator actions yet.</EmptyRow>}
        </tbody>
      </Table>
      <CursorPager label="Audit log" page={pages.page} nextCursor={data?.nextCursor} onOlder={pages.older} onNewer={pages.newer} onNewest={pages.newest} />
    </div>
  );
}
