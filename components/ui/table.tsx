// Plain, accessible table primitives; pages compose them (server or client). Between 1024 and 1280 px
// (the sidebar beside them) cells are tighter and headings may wrap between words, so tables fit.

export function Table({ caption, children }: { caption: string; children: React.ReactNode }) {
  return (
    <ScrollRegion label={caption} className="rounded-lg border border-slate-200 bg-white">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </ScrollRegion>
  );
}

/**
 * A box that scrolls sideways when its content is wider than the screen. It takes the keyboard's focus
 * (arrow keys then scroll it) and is named for screen readers, so a phone-width table is reachable
 * without a mouse (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
export function ScrollRegion({
  label,
  className = "",
  children,
}: {
  label: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className={`overflow-x-auto focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${className}`}
    >
      {children}
    </div>
  );
}

export function Th({ children, className = "" }: { children?: React.ReactNode; className?: string }) {
  return (
    <th
      scope="col"
      className={`bg-slate-50 px-2 py-2 text-left sm:px-3 lg:max-xl:px-2 xl:whitespace-nowrap text-xs font-semibold uppercase tracking-wide text-slate-600 ${className}`}
    >
      {children}
    </th>
  );
}

export function Td({ children, className = "" }: { children?: React.ReactNode; className?: string }) {
  return <td className={`px-2 py-2 align-top sm:px-3 lg:max-xl:px-2 ${className}`}>{children}</td>;
}

export function EmptyRow({ colSpan, children }: { colSpan: number; children: React.ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-3 py-8 text-center text-slate-500">
        {children}
      </td>
    </tr>
  );
}
