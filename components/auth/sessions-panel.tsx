"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { errorText } from "@/lib/browser/client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorNotice } from "@/components/ui/feedback";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { useMe } from "./role-context";
import { useRevokeAll, useRevokeSession, useSessions } from "./use-sessions";

/** Live sessions: one's own (an admin sees everyone's and can end any), and "sign out everywhere". */
export function SessionsPanel() {
  const me = useMe();
  const { data, error } = useSessions();
  const revoke = useRevokeSession();
  const revokeAll = useRevokeAll();
  const [revokeTokens, setRevokeTokens] = useState(false);
  const router = useRouter();
  const all = me?.role === "admin";
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        {all ? "Every live session; you can end any of them." : "Where you are signed in."} Ending a session signs that
        browser out at its next request.
      </p>
      {error && <ErrorNotice title="Could not load the sessions" message={errorText(error)} />}
      {revoke.error && <ErrorNotice title="Not ended" message={errorText(revoke.error)} />}
      {revokeAll.error && <ErrorNotice title="Not signed out" message={errorText(revokeAll.error)} />}
      <Table caption="Sessions">
        <thead>
          <tr>
            {all && <Th>User</Th>}
            <Th>Client</Th>
            <Th>Signed in</Th>
            <Th>Last seen</Th>
            <Th className="relative">
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {data?.items.map((s) => (
            <tr key={s.id}>
              {all && <Td className="break-all text-xs">{s.email}</Td>}
              <Td>
                <div className="font-mono text-xs">{s.clientAddress}</div>
                <div className="max-w-xs truncate text-xs text-slate-500" title={s.userAgent ?? ""}>
                  {s.userAgent ?? "unknown browser"}
                </div>
              </Td>
              <Td className="whitespace-nowrap">
                <Time iso={s.createdAt} />
              </Td>
              <Td className="whitespace-nowrap">
                <Time iso={s.lastSeenAt} relative />
              </Td>
              <Td className="text-right">
                {s.current ? (
                  <Badge tone="info">this browser</Badge>
                ) : (
                  <Button
                    variant="secondary"
                    pending={revoke.isPending && revoke.variables === s.id}
                    pendingLabel="Ending…"
                    onClick={() => revoke.mutate(s.id)}
                  >
                    End
                  </Button>
                )}
              </Td>
            </tr>
          ))}
          {data && data.items.length === 0 && <EmptyRow colSpan={all ? 5 : 4}>No live sessions.</EmptyRow>}
        </tbody>
      </Table>
      {me?.kind === "user" && (
        <div className="flex flex-wrap items-center gap-3">
          <Button
            variant="danger"
            pending={revokeAll.isPending}
            pendingLabel="Signing out…"
            onClick={() =>
              revokeAll.mutate(
                { revokeTokens },
                {
                  onSuccess: () => {
                    router.replace("/login");
                    router.refresh();
                  },
                },
              )
            }
          >
            Sign out everywhere
          </Button>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" checked={revokeTokens} onChange={(e) => setRevokeTokens(e.target.checked)} />
            and revoke my personal API tokens
          </label>
        </div>
      )}
    </div>
  );
}
