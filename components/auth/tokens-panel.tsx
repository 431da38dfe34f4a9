"use client";

import { useState } from "react";
import { errorText } from "@/lib/browser/client";
import { isRole, roleAtLeast, ROLES } from "@/lib/auth/client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorNotice } from "@/components/ui/feedback";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { useMe } from "./role-context";
import { useCreateToken, useRevokeToken, useTokens } from "./use-tokens";

const field = "w-full rounded border border-slate-300 bg-white px-2 py-1.5 text-sm";
const label = "flex flex-col gap-1 text-xs font-medium text-slate-700";

/** A new token, held only in this component's state: a reload or "Done" forgets it for good. */
function ShownOnce({ token, onDone }: { token: string; onDone: () => void }) {
  const [copied, setCopied] = useState<"" | "copied" | "failed">("");
  return (
    <section
      aria-label="New token"
      className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
    >
      <h3 className="font-semibold">New token: shown only this once</h3>
      <p className="mt-1">
        Send it as <code>Authorization: Bearer …</code>. Tally keeps only its hash and cannot show it again.
      </p>
      <code data-testid="new-token" className="mt-2 block break-all rounded bg-white px-2 py-1 font-mono">
        {token}
      </code>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button
          variant="secondary"
          onClick={() =>
            navigator.clipboard.writeText(token).then(
              () => setCopied("copied"),
              () => setCopied("failed"),
            )
          }
        >
          Copy
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Done, forget it
        </Button>
      </div>
      <p role="status" className="mt-1 text-xs">
        {copied === "copied"
          ? "Copied to the clipboard."
          : copied === "failed"
            ? "The browser refused the clipboard; select the token and copy it by hand."
            : ""}
      </p>
    </section>
  );
}

export function CreateTokenForm() {
  const me = useMe();
  const create = useCreateToken();
  const [token, setToken] = useState<string | null>(null);
  if (!me || me.kind !== "user")
    return <p className="text-sm text-slate-600">Tokens are made by a signed-in person.</p>;
  const roles = ROLES.filter((r) => roleAtLeast(me.role, r));
  return (
    <div className="space-y-3">
      <form
        aria-label="Create a token"
        className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4 lg:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const f = new FormData(form);
          const role = String(f.get("role"));
          const days = Number(f.get("expiresInDays"));
          setToken(null);
          create.mutate(
            {
              name: String(f.get("name")).trim(),
              role: isRole(role) ? role : "viewer",
              ...(days > 0 ? { expiresInDays: days } : {}),
            },
            {
              onSuccess: (t) => {
                setToken(t.token);
                form.reset();
              },
            },
          );
        }}
      >
        <label className={label}>
          Name
          <input
            name="name"
            required
            maxLength={60}
            pattern="[A-Za-z0-9][A-Za-z0-9._\-]*"
            title="letters, digits, dot, dash and underscore"
            placeholder="ci-deploy"
            className={field}
          />
        </label>
        <label className={label}>
          Role (at most yours)
          <select name="role" defaultValue="viewer" className={field}>
            {roles.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <label className={label}>
          Expires after (days, empty: never)
          <input name="expiresInDays" type="number" min={1} max={3650} className={field} />
        </label>
        <Button type="submit" pending={create.isPending} pendingLabel="Creating…">
          Create token
        </Button>
      </form>
      {create.error && <ErrorNotice title="No token made" message={errorText(create.error)} />}
      {token && <ShownOnce token={token} onDone={() => setToken(null)} />}
    </div>
  );
}

export function TokensTable() {
  const me = useMe();
  const { data, error } = useTokens();
  const revoke = useRevokeToken();
  const showOwner = me?.role === "admin";
  return (
    <div className="space-y-3">
      {error && <ErrorNotice title="Could not load the tokens" message={errorText(error)} />}
      {revoke.error && <ErrorNotice title="Not revoked" message={errorText(revoke.error)} />}
      <Table caption="API tokens">
        <thead>
          <tr>
            <Th>Token</Th>
            <Th>Role</Th>
            {showOwner && <Th>Owner</Th>}
            <Th>Expires</Th>
            <Th>Last used</Th>
            <Th>State</Th>
            <Th className="relative">
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {data?.items.map((t) => {
            return (
              <tr key={t.id}>
                <Td className="whitespace-nowrap">
                  <div className="font-medium">{t.name}</div>
                  <div className="font-mono text-xs text-slate-500">tly_…{t.last4}</div>
                </Td>
                <Td>
                  <Badge>{t.role}</Badge>
                </Td>
                {showOwner && <Td className="break-all text-xs">{t.owner ?? "—"}</Td>}
                <Td className="whitespace-nowrap">{t.expiresAt ? <Time iso={t.expiresAt} /> : "never"}</Td>
                <Td className="whitespace-nowrap">{t.lastUsedAt ? <Time iso={t.lastUsedAt} relative /> : "never"}</Td>
                <Td>
                  <Badge tone={t.state === "active" ? "good" : t.state === "expired" ? "warn" : "bad"}>{t.state}</Badge>
                </Td>
                <Td className="text-right">
                  {!t.revokedAt && (
                    <Button
                      variant="secondary"
                      pending={revoke.isPending && revoke.variables === t.id}
                      pendingLabel="Revoking…"
                      aria-label={`Revoke ${t.name}`}
                      onClick={() => revoke.mutate(t.id)}
                    >
                      Revoke
                    </Button>
                  )}
                </Td>
              </tr>
            );
          })}
          {data && data.items.length === 0 && <EmptyRow colSpan={showOwner ? 7 : 6}>No tokens yet.</EmptyRow>}
        </tbody>
      </Table>
    </div>
  );
}
