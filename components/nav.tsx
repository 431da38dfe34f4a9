"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";

export const SECTIONS = [
  { href: "/", label: "Overview" },
  { href: "/jobs", label: "Jobs" },
  { href: "/deliveries", label: "Deliveries" },
  { href: "/subscriptions", label: "Webhooks & secrets" },
  { href: "/dead-letters", label: "Dead letters" },
  { href: "/outbound", label: "Outbound" },
  { href: "/operations", label: "Operations" },
  { href: "/budget", label: "API budget" },
  { href: "/alerts", label: "Alerts" },
  { href: "/settings", label: "Settings" },
] as const;

export function Nav() {
  const path = usePathname();
  return (
    <nav aria-label="Sections" className="flex flex-wrap gap-1">
      {SECTIONS.map((s) => {
        const active = s.href === "/" ? path === "/" : path.startsWith(s.href);
        return (
          <Link
            key={s.href}
            href={s.href}
            aria-current={active ? "page" : undefined}
            className={`rounded px-3 py-1.5 text-sm ${active ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-200"}`}
          >
            {s.label}
          </Link>
        );
      })}
    </nav>
  );
}

export function LogoutButton() {
  const router = useRouter();
  async function logout() {
    await fetch("/api/auth/logout", { method: "POST" });
    router.replace("/login");
    router.refresh();
  }
  return (
    <button type="button" onClick={logout} className="rounded px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-200">
      Sign out
    </button>
  );
}
