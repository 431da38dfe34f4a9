"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { useMe } from "./role-context";

// Who is signed in, with their role, their pages and a sign-out: one self-contained piece of the
// header, a native <details> so it opens without script and closes with Escape in most browsers.

export function UserMenu() {
  const me = useMe();
  const router = useRouter();
  const [signingOut, setSigningOut] = useState(false);
  if (!me) return null;
  async function signOut() {
    setSigningOut(true);
    await fetch("/api/auth/logout", { method: "POST" }).catch(() => undefined);
    router.replace("/login");
    router.refresh();
  }
  return (
    <details className="group relative" data-testid="user-menu">
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-200 [&::-webkit-details-marker]:hidden">
        <span className="max-w-40 truncate font-medium" title={me.email ?? me.name}>
          {me.name}
        </span>
        <Badge tone={me.role === "admin" ? "info" : me.role === "operator" ? "good" : "neutral"}>{me.role}</Badge>
        <span aria-hidden className="text-xs text-slate-500 group-open:rotate-180">
          ▾
        </span>
      </summary>
      <div className="absolute right-0 z-20 mt-1 w-60 rounded-lg border border-slate-200 bg-white p-2 text-sm shadow-lg">
        {me.email && <p className="truncate px-2 pb-2 text-xs text-slate-500">{me.email}</p>}
        <nav aria-label="Account" className="flex flex-col">
          {me.role === "admin" && (
            <Link className="rounded px-2 py-1.5 hover:bg-slate-100" href="/settings/users">
              Users
            </Link>
          )}
          <Link className="rounded px-2 py-1.5 hover:bg-slate-100" href="/settings/tokens">
            API tokens
          </Link>
          <Link className="rounded px-2 py-1.5 hover:bg-slate-100" href="/settings#sessions">
            Sessions
          </Link>
        </nav>
        <button
          type="button"
          onClick={signOut}
          disabled={signingOut}
          className="mt-1 w-full rounded px-2 py-1.5 text-left hover:bg-slate-100 disabled:opacity-60"
        >
          {signingOut ? "Signing out…" : "Sign out"}
        </button>
      </div>
    </details>
  );
}
