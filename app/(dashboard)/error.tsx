"use client";

import { Button } from "@/components/ui/button";
import { ErrorNotice } from "@/components/ui/feedback";

// Also the boundary for sections without their own error.tsx, so it names no page.
export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  // In production the server's message is withheld from the browser; the digest finds it in the log.
  const message = error.digest ? `A server error happened (reference ${error.digest}); the server log has the details.` : error.message;
  return (
    <div className="space-y-3">
      <ErrorNotice title="This page could not be loaded" message={message} />
      <Button variant="secondary" onClick={reset}>
        Try again
      </Button>
    </div>
  );
}
