"use client";

import { useState } from "react";
import { errorText } from "@/lib/browser/client";
import { isRole, type Role, ROLES } from "@/lib/auth/client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorNotice, Notice } from "@/components/ui/feedback";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { useMe } from "./role-context";
import { useCreateUser, useDisableUser, useResetPassword, useSetRole, useUsers } from "./use-users";

const field = "w-full rounded border border-slate-300 bg-white px-2 py-1.5 text-sm";
const label = "flex flex-col gap-1 text-xs font-medium text-slate-700";

/** Admin: add a person with a role and a first password. */
export function CreateUserForm() {
  const create = useCreateUser();
  const [done, setDone] = useState<string | null>(null);
  return (
    <form
      aria-label="Add a user"
      className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5 lg:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const form = e.currentTarget;
        const role = String(f.get("role"));
        setDone(null);
        create.mutate(
          {
            email: String(f.get("email")),
            name: String(f.get("name")),
            role: isRole(role) ? role : "viewer",
            password: String(f.get("password")),
          },
          {
            onSuccess: (u) => {
              setDone(`${u.email} can sign in now, as ${u.role}.`);
              form.reset();
            },
          },
        );
      }}
    >
      <label className={label}>
        E-mail
        <input name="email" type="email" required autoComplete="off" className={field} />
      </label>
      <label className={label}>
        Name
        <input name="name" required maxLength={100} autoComplete="off" className={field} />
      </label>
      <label className={label}>
        Role
        <select name="role" defaultValue="viewer" className={field}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </label>
      <label className={label}>
        First password
        <input name="password" type="password" required minLength={10} autoComplete="new-password" className={field} />
      </label>
      <Button type="submit" pending={create.isPending} pendingLabel="Adding…">
        Add user
      </Button>
      <div className="sm:col-span-2 lg:col-span-5">
        {create.error && <ErrorNotice title="Not added" message={errorText(create.error)} />}
        {done && <Notice tone="good">{done}</Notice>}
      </div>
    </form>
  );
}

function UserState({ disabled }: { disabled: boolean }) {
  return disabled ? <Badge tone="bad">disabled</Badge> : <Badge tone="good">active</Badge>;
}

/** Admin: everyone who can sign in, their role (changeable) and a way to shut them out. */
export function UsersTable() {
  const me = useMe();
  const { data, error } = useUsers();
  const setRole = useSetRole();
  const disable = useDisableUser();
  const [confirming, setConfirming] = useState<{ id: string; email: string } | null>(null);
  const reset = useResetPassword();
  const [resetting, setResetting] = useState<{ id: string; email: string } | null>(null);
  const [resetDone, setResetDone] = useState<string | null>(null);
  return (
    <div className="space-y-3">
      {error && <ErrorNotice title="Could not load the users" message={errorText(error)} />}
      {setRole.error && <ErrorNotice title="Role not changed" message={errorText(setRole.error)} />}
      {disable.error && <ErrorNotice title="Not disabled" message={errorText(disable.error)} />}
      {resetDone && <Notice tone="good">{resetDone}</Notice>}
      <Table caption="Users">
        <thead>
          <tr>
            <Th>User</Th>
            <Th>Role</Th>
            <Th className="hidden sm:table-cell">State</Th>
            <Th className="hidden sm:table-cell">Added</Th>
            <Th className="relative">
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {data?.items.map((u) => (
            <tr key={u.id}>
              <Td>
                <div className="font-medium">
                  {u.name}
                  {me?.email === u.email && <span className="ml-1 text-xs text-slate-500">(you)</span>}
                </div>
                <div className="break-all text-xs text-slate-600">{u.email}</div>
                {/* On a phone the state and the date go under the name: five columns do not fit 390 px. */}
                <div className="mt-1 space-y-0.5 text-xs text-slate-600 sm:hidden">
                  <UserState disabled={u.disabled} />
                  <div>
                    added <Time iso={u.createdAt} />
                  </div>
                </div>
              </Td>
              <Td>
                <select
                  aria-label={`Role of ${u.email}`}
                  value={u.role}
                  disabled={u.disabled || setRole.isPending}
                  onChange={(e) => isRole(e.target.value) && setRole.mutate({ id: u.id, role: e.target.value as Role })}
                  className="rounded border border-slate-300 bg-white px-2 py-1 text-sm"
                >
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              </Td>
              <Td className="hidden sm:table-cell">
                <UserState disabled={u.disabled} />
              </Td>
              <Td className="hidden whitespace-nowrap sm:table-cell">
                <Time iso={u.createdAt} />
              </Td>
              <Td className="text-right">
                {!u.disabled && (
                  <div className="flex flex-wrap justify-end gap-2">
                    <Button
                      variant="secondary"
                      onClick={() => {
                        reset.reset();
                        setResetDone(null);
                        setResetting({ id: u.id, email: u.email });
                      }}
                    >
                      Reset password
                    </Button>
                    <Button variant="secondary" onClick={() => setConfirming({ id: u.id, email: u.email })}>
                      Disable
                    </Button>
                  </div>
                )}
              </Td>
            </tr>
          ))}
          {data && data.items.length === 0 && <EmptyRow colSpan={5}>No users yet.</EmptyRow>}
        </tbody>
      </Table>
      <ConfirmDialog
        open={resetting !== null}
        title={`Reset the password of ${resetting?.email ?? ""}?`}
        confirmLabel="Set password"
        tone="danger"
        pending={reset.isPending}
        onCancel={() => setResetting(null)}
        onConfirm={() => {
          const input = document.getElementById("reset-password-input");
          const password = input instanceof HTMLInputElement ? input.value : "";
          if (!resetting) return;
          reset.mutate(
            { id: resetting.id, password },
            {
              onSuccess: (r) => {
                setResetting(null);
                setResetDone(
                  `New password set for ${r.email}: ${r.sessionsEnded} session(s) ended, ${r.tokensRevoked} API token(s) revoked.`,
                );
              },
            },
          );
        }}
      >
        <div className="space-y-2 text-sm">
          <p>Their sessions end at once and their personal API tokens are revoked. Tell them the new password.</p>
          <label className={label}>
            New password (at least 10 characters)
            <input
              id="reset-password-input"
              type="password"
              minLength={10}
              required
              autoComplete="new-password"
              className={field}
            />
          </label>
          {reset.error && <ErrorNotice title="Not reset" message={errorText(reset.error)} />}
        </div>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming !== null}
        title={`Disable ${confirming?.email ?? ""}?`}
        confirmLabel="Disable"
        tone="danger"
        pending={disable.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && disable.mutate(confirming.id, { onSettled: () => setConfirming(null) })}
      >
        <p className="text-sm">
          Their sessions end at once and their API tokens stop working. `npm run user -- enable` lets them in again.
        </p>
      </ConfirmDialog>
    </div>
  );
}
