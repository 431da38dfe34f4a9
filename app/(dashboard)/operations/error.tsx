"use client";

import { Button } from "@/components/ui/button";
import { ErrorNotice } from "@/components/ui/feedback";

export default function OperationsError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return (
    <div className="space-y-3">
      <ErrorNotice title="The operations page could not load" message={error.digest ? `Server error (reference ${error.digest}). Try again; if it persists, check the server log.` : error.message} />
      <Button variant="secondary" onClick={retry}>Try again</Button>
    </div>
  );
}
