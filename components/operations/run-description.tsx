"use client";

import Link from "next/link";
import type { Described } from "@/lib/operations/client";
import { Countdown } from "./countdown";
import { ScrollRegion } from "@/components/ui/table";

export function FactTables({ tables }: { tables: Described["tables"] }) {
  return (
    <>
      {tables.map((t) => (
        <ScrollRegion label={t.caption} key={t.caption}>
          <table className="mt-2 text-sm">
            <caption className="mb-1 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
              {t.caption}
            </caption>
            <thead>
              <tr>
                {t.columns.map((c, i) => (
                  <th
                    key={c}
                    scope="col"
                    className={`px-2 py-1 text-xs font-medium text-slate-600 ${i === 0 ? "text-left" : "text-right"}`}
                  >
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {t.rows.map((r, i) => (
                <tr key={i}>
                  {r.map((cell, j) => (
                    <td key={j} className={`px-2 py-1 ${j === 0 ? "" : "text-right tabular-nums"}`}>
                      {typeof cell === "number" ? cell.toLocaleString("en-US") : cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ))}
    </>
  );
}

/** The result as sentences, a countdown while a rotation settles, links to the runs it started. */
export function RunDescription({ d }: { d: Described }) {
  return (
    <div className="space-y-2 text-sm" data-testid="run-result">
      {d.sentences.map((s) => (
        <p key={s}>{s}</p>
      ))}
      {d.replayAt && (
        <p className="font-medium text-sky-800">
          <Countdown until={d.replayAt} label="Replay starts" />
        </p>
      )}
      {d.childRunId && (
        <p>
          <Link href={`/operations/${encodeURIComponent(d.childRunId)}`} className="text-brand-600 underline">
            {d.childLabel ?? "Open the replay it started →"}
          </Link>
        </p>
      )}
      <FactTables tables={d.tables} />
    </div>
  );
}
