"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";

/** The dashboard's sections, one list: a new page adds one entry here and appears in both layouts. */
export const SECTIONS = [
  { href: "/", label: "Overview" },
  { href: "/runs", label: "Runs" },
  { href: "/collections", label: "Collections" },
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

function isActive(href: string, path: string): boolean {
  return href === "/" ? path === "/" : path === href || path.startsWith(`${href}/`);
}

/**
 * One row of links from md up; below that a "Menu" button that opens the same links as a column
 * (closed again on navigation), so the header stays one line on a phone.
 */
export function Nav({ children }: { children?: React.ReactNode }) {
  const path = usePathname();
  // Open for the page it was opened on: navigating closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === path;
  const current = SECTIONS.find((s) => isActive(s.href, path));
  return (
    <>
      <button
        type="button"
        className="ml-auto inline-flex items-center gap-2 rounded border border-slate-300 px-3 py-1.5 text-sm md:hidden"
        aria-expanded={open}
        aria-controls="sections-nav"
        onClick={() => setOpenOn(open ? null : path)}
      >
        <span aria-hidden>{open ? "✕" : "☰"}</span>
        Menu{current ? <span className="sr-only">: {current.label}</span> : null}
      </button>
      <nav
        id="sections-nav"
        aria-label="Sections"
        className={`${open ? "flex" : "hidden"} order-last w-full flex-col gap-1 md:order-none md:flex md:w-auto md:flex-1 md:flex-row md:flex-wrap`}
      >
        {SECTIONS.map((s) => {
          const active = isActive(s.href, path);
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
        {children && (
          <div className="mt-1 border-t border-slate-200 pt-2 md:ml-auto md:mt-0 md:border-0 md:pt-0">{children}</div>
        )}
      </nav>
    </>
  );
}
