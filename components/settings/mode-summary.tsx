import type { SettingsView } from "@/lib/settings";
import { Badge } from "@/components/ui/badge";

const DELIVERY = {
  webhooks: "Webhooks, with polling for jobs that hear nothing",
  polling: "Polling only (no webhooks)",
  both: "Webhooks and polling",
} as const;

/** The running mode at a glance: demo or live, and how finished jobs are noticed. */
export function ModeSummary({ view }: { view: SettingsView }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
      <div>
        <dt className="text-slate-600">Mode</dt>
        <dd className="mt-0.5 flex items-center gap-2">
          <Badge tone={view.mode === "live" ? "good" : "info"}>{view.mode}</Badge>
          {view.mode === "demo" ? "the built-in simulator stands in for the platform" : "talking to the real platform"}
        </dd>
      </div>
      <div>
        <dt className="text-slate-600">Delivery</dt>
        <dd className="mt-0.5">
          <Badge>{view.deliveryMode}</Badge> {DELIVERY[view.deliveryMode]}
        </dd>
      </div>
      <div>
        <dt className="text-slate-600">Signature scheme</dt>
        <dd className="mt-0.5">{view.webhookScheme === "hmac" ? "HMAC" : "Standard Webhooks"}</dd>
      </div>
      <div>
        <dt className="text-slate-600">Public URL (webhooks point here)</dt>
        <dd className="mt-0.5 break-all font-mono text-xs">{view.publicUrl}</dd>
      </div>
      <div className="sm:col-span-2">
        <dt className="text-slate-600">Platform API</dt>
        <dd className="mt-0.5 break-all font-mono text-xs" data-testid="api-base-url">
          {view.apiBaseUrl ?? "not started yet"}
        </dd>
      </div>
    </dl>
  );
}
