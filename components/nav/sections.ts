// The dashboard's pages as the navigation shows them: the overview, then four groups in the order
// work flows through Tally (what operators start, what arrives, what goes out, what keeps it running).
// A new page adds one entry here; the sidebar and the phone menu are the same list.

export type NavItem = { href: string; label: string };
export type NavGroup = { id: string; label: string; items: readonly NavItem[] };

export const OVERVIEW: NavItem = { href: "/", label: "Overview" };

export const NAV_GROUPS: readonly NavGroup[] = [
  {
    id: "work",
    label: "Work",
    items: [
      { href: "/runs", label: "Runs" },
      { href: "/collections", label: "Collections" },
      { href: "/jobs", label: "Jobs" },
    ],
  },
  {
    id: "intake",
    label: "Intake",
    items: [
      { href: "/deliveries", label: "Deliveries" },
      { href: "/subscriptions", label: "Webhooks & secrets" },
      { href: "/dead-letters", label: "Dead letters" },
    ],
  },
  { id: "out", label: "Out", items: [{ href: "/outbound", label: "Outbound" }] },
  {
    id: "operations",
    label: "Operations",
    items: [
      { href: "/operations", label: "Operations" },
      { href: "/budget", label: "API budget" },
      { href: "/alerts", label: "Alerts" },
      { href: "/settings", label: "Settings" },
    ],
  },
];

/** Whether `href` is the page at `path` or one under it (/runs/123 and /runs/new mark Runs). */
export function isActive(href: string, path: string): boolean {
  return href === "/" ? path === "/" : path === href || path.startsWith(`${href}/`);
}

/** The item marking the page at `path`, if any. */
export function currentItem(path: string): NavItem | undefined {
  return [OVERVIEW, ...NAV_GROUPS.flatMap((g) => g.items)].find((i) => isActive(i.href, path));
}
