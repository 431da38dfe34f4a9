"use client";

import { PageHeader } from "@/components/empty-state";
import { Button } from "@/components/ui/button";
import { ErrorNotice } from "@/components/ui/feedback";

export default function DeadLettersError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const message = error.digest ? `A server error happened (reference ${error.digest}); the server log has the details.` : error.message;
  return (
    <>
      <PageHeader title="Dead letters" />
      <div className="space-y-3">
        <ErrorNotice title="Dead letters could not be loaded" message={message} />
        <Button variant="secondary" onClick={reset}>
          Try again
        </Button>
      </div>
    </>
  );
}
