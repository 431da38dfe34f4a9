"use client";

import { PageHeader } from "@/components/empty-state";
import { Button } from "@/components/ui/button";
import { ErrorNotice } from "@/components/ui/feedback";

export type RouteErrorProps = { error: Error & { digest?: string }; reset: () => void };

/** The body of every section's error.tsx: what failed, in words, and a way to try again. */
export function RouteError({ error, reset, title, heading }: RouteErrorProps & { title: string; heading?: string }) {
  // In production the server's message is withheld from the browser; the digest finds it in the log.
  const message = error.digest
    ? `A server error happened (reference ${error.digest}); the server log has the details.`
    : error.message;
  return (
    <>
      {heading && <PageHeader title={heading} />}
      <div className="space-y-3">
        <ErrorNotice title={title} message={message} />
        <Button variant="secondary" onClick={reset}>
          Try again
        </Button>
      </div>
    </>
  );
}
