import { Badge } from "@/components/ui/badge";
import { Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import type { RuleView } from "@/lib/alerts/client";
import { RuleActions, RuleHolds } from "./rule-actions";

function State({ r }: { r: RuleView }) {
  return (
    <>
      {r.state === "firing" ? <Badge tone="bad">firing</Badge> : <Badge tone="good">ok</Badge>}
      {r.since && (
        <span className="ml-1 text-xs text-slate-500">
          since <Time iso={r.since} relative />
        </span>
      )}
    </>
  );
}

/** Every rule with its state, what it looks at and the thresholds in force: cards on a phone, a table wider up. */
export function RuleTable({ rules }: { rules: RuleView[] }) {
  return (
    <>
      <ul
        className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white md:hidden"
        aria-label="Alert rules"
      >
        {rules.map((r) => (
          <li key={r.rule} className="space-y-1 p-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-mono text-xs font-semibold">{r.rule}</span>
              <span>
                <State r={r} />
              </span>
            </div>
            <p className="text-xs text-slate-600">{r.description}</p>
            <p className="break-words text-xs text-slate-800">{r.summary ?? "not evaluated yet"}</p>
            <RuleHolds r={r} />
            <ul className="text-xs text-slate-600">
              {r.thresholds.map((t) => (
                <li key={t.setting} className="break-words">
                  {t.value} <span className="font-mono text-slate-500 wrap-anywhere">({t.setting})</span>
                </li>
              ))}
            </ul>
            <RuleActions r={r} />
          </li>
        ))}
      </ul>
      <div className="hidden md:block">
        <RulesWide rules={rules} />
      </div>
    </>
  );
}

function RulesWide({ rules }: { rules: RuleView[] }) {
  return (
    <Table caption="Alert rules with state and thresholds">
      <thead>
        <tr>
          <Th>Rule</Th>
          <Th>State</Th>
          <Th>Threshold</Th>
          <Th className="min-w-64">Now</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rules.map((r) => (
          <tr key={r.rule} data-testid={`rule-${r.rule}`}>
            <Td>
              <div className="font-mono text-xs font-semibold">{r.rule}</div>
              <div className="mt-0.5 max-w-72 text-xs text-slate-600">{r.description}</div>
            </Td>
            <Td className="whitespace-nowrap">
              <State r={r} />
            </Td>
            <Td>
              <ul className="space-y-0.5 text-xs">
                {r.thresholds.map((t) => (
                  <li key={t.setting}>
                    {t.value} <span className="font-mono text-slate-500 wrap-anywhere">({t.setting})</span>
                  </li>
                ))}
              </ul>
            </Td>
            <Td className="text-xs text-slate-700">
              <span className="break-words">{r.summary ?? "not evaluated yet"}</span>
              {r.evaluatedAt && (
                <div className="text-slate-500">
                  checked <Time iso={r.evaluatedAt} relative />
                </div>
              )}
              <RuleHolds r={r} />
              <RuleActions r={r} />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
