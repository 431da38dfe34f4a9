import type { SettingsView } from "@/lib/settings/view";
import { Table, Td, Th } from "@/components/ui/table";

/** Every setting as Tally resolved it at start-up; secrets arrive here already masked. */
export function ConfigTable({ settings }: { settings: SettingsView["settings"] }) {
  return (
    <Table caption="Effective configuration; secrets masked">
      <thead>
        <tr><Th>Variable</Th><Th>Value</Th></tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {settings.map((s) => (
          <tr key={s.name}>
            <Td className="font-mono text-xs">{s.name}</Td>
            <Td className="break-all font-mono text-xs">{s.value === "" ? <span className="text-slate-400">(not set)</span> : s.value}</Td>
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
        <tr><Th>Subscription</Th><Th>Secret</Th><Th>Previous secret</Th></tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {subscriptions.map((s) => (
          <tr key={s.id}>
            <Td>{s.eventType} <span className="font-mono text-xs text-slate-500">{s.id}</span></Td>
            <Td className="font-mono">{s.secret}</Td>
            <Td className="font-mono">{s.previousSecret}</Td>
          </tr>
        ))}
        {subscriptions.length === 0 && (
          <tr><td colSpan={3} className="px-3 py-6 text-center text-slate-500">No subscriptions yet.</td></tr>
        )}
      </tbody>
    </Table>
  );
}
