"use client";

import { useState } from "react";
import { errorText } from "@/lib/browser/client";
import { Button } from "@/components/ui/button";
import { ErrorNotice, Notice } from "@/components/ui/feedback";
import { useMe } from "./role-context";
import { useChangePassword } from "./use-change-password";

const field = "w-full rounded border border-slate-300 bg-white px-2 py-1.5 text-sm";
const label = "flex flex-col gap-1 text-xs font-medium text-slate-700";

/** Change one's own password; every other session of one's own ends. */
export function PasswordForm() {
  const me = useMe();
  const change = useChangePassword();
  const [done, setDone] = useState<string | null>(null);
  if (!me || me.kind !== "user") return <p className="text-sm text-slate-600">A token has no password.</p>;
  return (
    <form
      aria-label="Change your password"
      className="grid grid-cols-1 gap-3 sm:grid-cols-3 sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const f = new FormData(form);
        setDone(null);
        change.mutate(
          { currentPassword: String(f.get("currentPassword")), newPassword: String(f.get("newPassword")) },
          {
            onSuccess: (r) => {
              form.reset();
              const count = (n: number, what: string) => (n ? ` ${n} ${what}${n === 1 ? "" : "s"}` : "");
              setDone(
                `Password changed.${count(r.endedSessions, "other session")}${r.endedSessions ? " ended." : ""}` +
                  `${count(r.revokedTokens, "API token")}${r.revokedTokens ? " revoked." : ""}`,
              );
            },
          },
        );
      }}
    >
      <input type="hidden" name="username" autoComplete="username" value={me.email ?? ""} readOnly />
      <label className={label}>
        Current password
        <input name="currentPassword" type="password" required autoComplete="current-password" className={field} />
      </label>
      <label className={label}>
        New password (at least 10 characters)
        <input
          name="newPassword"
          type="password"
          required
          minLength={10}
          autoComplete="new-password"
          className={field}
        />
      </label>
      <Button type="submit" pending={change.isPending} pendingLabel="Changing…">
        Change password
      </Button>
      <div className="sm:col-span-3">
        {change.error && <ErrorNotice title="Not changed" message={errorText(change.error)} />}
        {done && <Notice tone="good">{done}</Notice>}
      </div>
    </form>
  );
}
