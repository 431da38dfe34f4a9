"use client";

import { Can } from "@/components/auth/role-context";
import { errorText } from "@/lib/browser/client";
import { SimulatorKnobsForm } from "@/components/settings/simulator-knobs-form";
import { useSimulatorKnobs } from "@/components/settings/use-simulator-knobs";
import { Button } from "@/components/ui/button";
import { ErrorNotice, Skeleton } from "@/components/ui/feedback";

/** Demo mode only: the simulator's fault rates, editable; a save is audited on the server. */
export function SimulatorKnobsClient({ initialError }: { initialError: string | null }) {
  const knobs = useSimulatorKnobs(true);
  if (knobs.data) {
    return (
      <>
        <p className="mb-4 text-sm text-slate-600">
          How often the simulator misbehaves. Turn faults up to watch the safety nets (replay, reconciliation, retries)
          catch them.
        </p>
        <Can
          role="admin"
          fallback={<p className="text-sm text-slate-600">Only an admin changes the simulator&apos;s faults.</p>}
        >
          <SimulatorKnobsForm knobs={knobs.data} />
        </Can>
      </>
    );
  }
  if (knobs.error || (initialError && !knobs.isFetching)) {
    return (
      <div className="space-y-2">
        <ErrorNotice
          title="The simulator's knobs are unavailable"
          message={knobs.error ? errorText(knobs.error) : (initialError ?? "")}
        />
        <Button variant="secondary" onClick={() => void knobs.refetch()} pending={knobs.isFetching}>
          Try again
        </Button>
      </div>
    );
  }
  return <Skeleton className="h-40 w-full" />;
}
