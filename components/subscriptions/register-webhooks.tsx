"use client";

import { errorText } from "@/lib/browser/client";
import { Button } from "@/components/ui/button";
import { ErrorNotice, Notice } from "@/components/ui/feedback";
import { useRegisterWebhooks } from "./use-register-webhooks";

/** Shown when some event type has no subscription: Tally would then hear of those jobs only by reconciliation. */
export function RegisterWebhooks({ missing, none }: { missing: string[]; none: boolean }) {
  const register = useRegisterWebhooks();
  return (
    <div className="space-y-2 text-sm">
      <Notice tone="warn">
        {none
          ? "No webhooks are registered: Tally hears of finished jobs only through polling and reconciliation, minutes late."
          : `No subscription for ${missing.join(", ")}: those jobs are found only through polling and reconciliation.`}
      </Notice>
      <Button onClick={() => register.mutate()} pending={register.isPending} pendingLabel="Registering…">
        Register webhooks
      </Button>
      {register.error && <ErrorNotice title="Registration failed" message={errorText(register.error)} />}
      {register.data && (
        <Notice tone="good">
          {register.data.registered.length > 0
            ? `Registered ${register.data.registered.join(", ")}.`
            : "Nothing new to register."}
          {register.data.repaired.length > 0 ? ` Repaired ${register.data.repaired.join(", ")}.` : ""}
        </Notice>
      )}
    </div>
  );
}
