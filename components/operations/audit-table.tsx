"use client";

import { useState } from "react";
import { errorText } from "@/lib/browser/client";
import { Badge } from "@/components/ui/badge";
import { CursorPager, useCursorStack } from "@/components/ui/cursor-pager";
import { ErrorNotice } from "@/components/ui/feedback";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { AuditDetail, AuditTarget } from "./audit-detail";
import { useAuditLog } from "./use-audit-log";

/** Who did what: every operator action of every page lands here; filtered by who on demand. */
export function AuditTable() {
  const [actor, setActor] = useState("");
  const pages = useCursorStack(`audit:${actor}`);
  const { data, error } = useAuditLog({ cursor: pages.cursor, actor });
  return (
    <div>
      <form
        className="mb-3 flex flex-wrap items-end gap-2"
        aria-label="Filter the audit log"
        onSubmit={(e) => {
          e.preventDefault();
          setActor(String(new FormData(e.currentTarget).get("actor") ?? "").trim());
        }}
      >
        <label className="flex flex-col text-xs font-medium text-slate-700">
          Who (an e-mail, token:name or system)
          <input
            name="actor"
            defaultValue={actor}
            placeholder="anyone"
            className="w-64 max-w-full rounded border border-slate-300 bg-white px-2 py-1.5 text-sm"
          />
        </label>
        <button
          type="submit"
          className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50"
        >
          Filter
        </button>
        {actor && (
          <button type="button" className="text-sm text-slate-600 underline" onClick={() => setActor("")}>
            Show everyone
          </button>
        )}
      </form>
      {error && <ErrorNotice title="Could not load the audit log" message={errorText(error)} />}
      <Table caption="Operator actions, newest first">
        <thead>
          <tr>
            <Th className="max-sm:hidden">When</Th>
            <Th className="max-sm:hidden">Who</Th>
            <Th>Action</Th>
            <Th className="max-sm:hidden">Target</Th>
            <Th>Result</Th>
            <Th className="max-sm:hidden">Detail</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {data?.items.map((a) => (
            <tr key={a.id}>
              <Td className="whitespace-nowrap max-sm:hidden">
                <Time iso={a.at} />
              </Td>
              <Td className="max-sm:hidden">{a.actor}</Td>
              <Td className="font-mono text-xs">{a.action}</Td>
              <Td className="text-xs max-sm:hidden">
                <AuditTarget action={a.action} target={a.target} />
              </Td>
              <Td>
                <Badge tone={a.ok ? "good" : "bad"}>{a.ok ? "ok" : "failed"}</Badge>
              </Td>
              <Td className="max-w-md text-xs max-sm:hidden">
                <AuditDetail detail={a.detail} />
              </Td>
            </tr>
          ))}
          {data && data.items.length === 0 && <EmptyRow colSpan={6}>No operator actions yet.</EmptyRow>}
        </tbody>
      </Table>
      <CursorPager
        label="Audit log"
        page={pages.page}
        nextCursor={data?.nextCursor}
        onOlder={pages.older}
        onNewer={pages.newer}
        onNewest={pages.newest}
      />
    </div>
  );
}
