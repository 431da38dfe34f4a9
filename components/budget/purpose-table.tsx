import type { BudgetView } from "@/lib/platform/client";
import { Table, Td, Th } from "@/components/ui/table";
import { PURPOSE_COLORS } from "./calls-chart";

const fmt = (n: number) => n.toLocaleString("en-US");

/** One row per purpose: calls in the hour, per minute (mean, from 1280 px, and peak), share of the budget, answers by class. */
export function PurposeTable({ view }: { view: BudgetView }) {
  const classes = view.answerClasses.filter(
    (c) => view.answers[c] !== undefined || ["2xx", "4xx", "429", "5xx", "timeout"].includes(c),
  );
  return (
    <Table caption="Platform calls in the last hour by purpose and answer class">
      <thead>
        <tr>
          <Th>Purpose</Th>
          <Th className="text-right">Calls</Th>
          <Th className="text-right max-xl:hidden">Per minute</Th>
          <Th className="text-right">Peak minute</Th>
          <Th className="text-right">Of budget</Th>
          {classes.map((c) => (
            <Th key={c} className="text-right">
              {c}
            </Th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {view.byPurpose.map((p) => (
          <tr key={p.purpose} className={p.calls === 0 ? "text-slate-500" : undefined}>
            <Td className="xl:whitespace-nowrap">
              <span
                aria-hidden
                className="mr-2 inline-block h-2.5 w-2.5 rounded-sm"
                style={{ background: PURPOSE_COLORS[p.purpose] ?? "#94a3b8" }}
              />
              {p.purpose}
            </Td>
            <Td className="text-right tabular-nums">{fmt(p.calls)}</Td>
            <Td className="text-right tabular-nums max-xl:hidden">{p.perMinute}</Td>
            <Td className="text-right tabular-nums">{fmt(p.peakPerMinute)}</Td>
            <Td className="text-right tabular-nums">
              {view.budgetPerMinute > 0 ? `${((100 * p.perMinute) / view.budgetPerMinute).toFixed(1)}%` : "–"}
            </Td>
            {classes.map((c) => (
              <Td
                key={c}
                className={`text-right tabular-nums ${c === "429" && (p.answers[c] ?? 0) > 0 ? "font-semibold text-amber-700" : ""}`}
              >
                {fmt(p.answers[c] ?? 0)}
              </Td>
            ))}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
