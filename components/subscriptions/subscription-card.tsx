"use client";

import { Can } from "@/components/auth/role-context";
import { ShortId } from "@/components/ui/short-id";
import type { SubscriptionItem } from "@/lib/subscriptions/client";
import { Badge } from "@/components/ui/badge";
import { Time } from "@/components/ui/time";
import { RotateSecret } from "./rotate-secret";
import { SetSecretForm } from "./set-secret-form";

export function SubscriptionCard({ subscription: s }: { subscription: SubscriptionItem }) {
  return (
    <article
      aria-label={`Subscription ${s.eventType}`}
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <header className="flex flex-wrap items-center gap-2">
        <h3 className="font-semibold">{s.eventType}</h3>
        <Badge tone={s.isActive ? "good" : "bad"}>{s.isActive ? "active" : "inactive"}</Badge>
        <span className="ml-auto text-slate-500">
          <ShortId id={s.id} />
        </span>
      </header>
      <dl className="mt-3 grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-slate-600">URL</dt>
        <dd className="break-all font-mono text-xs">{s.url}</dd>
        <dt className="text-slate-600">Secret</dt>
        <dd className="font-mono" data-testid="secret-mask">
          {s.secretLast4 ? `••••${s.secretLast4}` : "••••"}
        </dd>
        <dt className="text-slate-600">Last rotation</dt>
        <dd>
          {s.rotatedAt ? (
            <>
              <Time iso={s.rotatedAt} relative /> (<Time iso={s.rotatedAt} />)
            </>
          ) : (
            "never"
          )}
        </dd>
      </dl>
      <div className="mt-3 space-y-3">
        <Can role="admin">
          <RotateSecret subscription={s} />
          <SetSecretForm subscription={s} />
        </Can>
      </div>
    </article>
  );
}
