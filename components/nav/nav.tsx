"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useRef, useState } from "react";
import { NAV_GROUPS, OVERVIEW, currentItem, isActive, type NavItem } from "./sections";

/**
 * The dashboard's frame and its one <nav>: from lg up a sticky sidebar beside the page, under a top bar
 * with the account at its right; below lg a "Menu" button that opens the account and the same sections
 * under the bar. Navigating, picking a link or Escape closes it.
 */
export function Shell({ account, children }: { account?: React.ReactNode; children: React.ReactNode }) {
  const path = usePathname();
  // Open for the page it was opened on: navigating closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === path;
  const button = useRef<HTMLButtonElement>(null);
  const current = currentItem(path);
  const close = () => setOpenOn(null);

  function onKeyDown(e: React.KeyboardEvent) {
    if (e.key !== "Escape" || !open) return;
    close();
    button.current?.focus();
  }

  return (
    <>
      <header className="border-b border-slate-200 bg-white lg:sticky lg:top-0 lg:z-30" onKeyDown={onKeyDown}>
        <div className="flex h-14 items-center gap-3 px-4">
          <Link href="/" className="flex items-center gap-2 text-lg font-semibold">
            {/* eslint-disable-next-line @next/next/no-img-element -- a 24 px static SVG, no optimisation to gain */}
            <img src="/icon.svg" alt="" width={24} height={24} />
            Tally
          </Link>
          <button
            ref={button}
            type="button"
            className="ml-auto inline-flex items-center gap-2 rounded border border-slate-300 px-3 py-1.5 text-sm lg:hidden"
            aria-expanded={open}
            aria-controls="site-menu"
            onClick={() => setOpenOn(open ? null : path)}
          >
            <span aria-hidden>{open ? "✕" : "☰"}</span>
            Menu{current ? <span className="sr-only">: {current.label}</span> : null}
          </button>
        </div>
      </header>
      <div className="lg:flex lg:min-h-[calc(100vh-3.5rem)]">
        {/* The column reaches the page's foot (border and background); the nav inside it sticks. */}
        <div
          id="site-menu"
          onKeyDown={onKeyDown}
          className={`${open ? "block" : "hidden"} border-b border-slate-200 bg-white lg:block lg:w-48 lg:shrink-0 xl:w-56 lg:border-b-0 lg:border-r`}
        >
          {account && (
            <div className="border-b border-slate-200 px-4 py-2 lg:fixed lg:right-4 lg:top-0 lg:z-40 lg:flex lg:h-14 lg:items-center lg:border-0 lg:p-0">
              {account}
            </div>
          )}
          <nav
            aria-label="Sections"
            className="px-2 py-3 lg:sticky lg:top-14 lg:max-h-[calc(100vh-3.5rem)] lg:overflow-y-auto lg:py-4 xl:px-3"
          >
            <NavLink item={OVERVIEW} path={path} onPick={close} />
            {NAV_GROUPS.map((group) => (
              <div key={group.id} role="group" aria-labelledby={`nav-group-${group.id}`} className="mt-4">
                <p
                  id={`nav-group-${group.id}`}
                  className="px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500"
                >
                  {group.label}
                </p>
                <ul className="flex flex-col gap-0.5">
                  {group.items.map((item) => (
                    <li key={item.href}>
                      <NavLink item={item} path={path} onPick={close} />
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
        </div>
        {/* min-w-0: a wide table scrolls inside its card instead of widening the page beside the sidebar */}
        <main className="min-w-0 flex-1">
          <div className="mx-auto max-w-7xl px-4 py-6 lg:px-6 xl:px-8">{children}</div>
        </main>
      </div>
    </>
  );
}

function NavLink({ item, path, onPick }: { item: NavItem; path: string; onPick: () => void }) {
  const active = isActive(item.href, path);
  return (
    <Link
      href={item.href}
      aria-current={active ? "page" : undefined}
      onClick={onPick}
      className={`block truncate whitespace-nowrap rounded-md px-3 py-1.5 text-sm ${
        active ? "bg-slate-900 font-medium text-white" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"
      }`}
    >
      {item.label}
    </Link>
  );
}
