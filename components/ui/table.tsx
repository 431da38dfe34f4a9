// Plain, accessible table primitives; pages compose them (server or client). Between 1024 and 1280 px
// (the sidebar beside them) cells are tighter and headings may wrap between words, so tables fit.

export function Table({ caption, children }: { caption: string; children: React.ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
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
