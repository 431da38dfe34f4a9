import type { SettingsView } from "@/lib/settings";
import { Badge } from "@/components/ui/badge";
import { ShortId } from "@/components/ui/short-id";
import { Table, Td, Th } from "@/components/ui/table";

const SOURCE_WORD = { set: "set", default: "default", derived: "derived", unset: "not set" } as const;
const SOURCE_TONE = { set: "info", default: "neutral", derived: "warn", unset: "neutral" } as const;

/** Every setting as Tally resolved it at start-up, and where its value came from; secrets arrive here already masked. */
export function ConfigTable({ settings }: { settings: SettingsView["settings"] }) {
  return (
    <Table caption="Effective configuration; secrets masked">
      <thead>
        <tr>
          <Th>Variable</Th>
          <Th>Value</Th>
          <Th>Source</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {settings.map((s) => (
          <tr key={s.name} data-source={s.source}>
            <Td className="break-all font-mono text-xs">{s.name}</Td>
            <Td className="break-all font-mono text-xs">
              {s.value === "" ? <span className="text-slate-500">(not set)</span> : s.value}
            </Td>
            <Td className="text-xs">
              <Badge tone={SOURCE_TONE[s.source]}>{SOURCE_WORD[s.source]}</Badge>
              {s.note && <div className="mt-0.5 text-slate-500">{s.note}</div>}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

export function SecretsTable({ subscriptions }: { subscriptions: SettingsView["subscriptions"] }) {
  return (
    <Table caption="Webhook signing secrets per subscription, masked">
      <thead>
        <tr>
          <Th>Subscription</Th>
          <Th>Secret</Th>
          <Th>Previous secret</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {subscriptions.map((s) => (
          <tr key={s.id}>
            <Td>
              {s.eventType} <ShortId id={s.id} />
            </Td>
            <Td className="font-mono">{s.secret}</Td>
            <Td className="font-mono">{s.previousSecret}</Td>
          </tr>
        ))}
        {subscriptions.length === 0 && (
          <tr>
            <td colSpan={3} className="px-3 py-6 text-center text-slate-500">
              No subscriptions yet.
            </td>
          </tr>
        )}
      </tbody>
    </Table>
  );
}
