"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";
import { ErrorNotice } from "@/components/ui/feedback";

export default function JobError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const message = error.digest
    ? `A server error happened (reference ${error.digest}); the server log has the details.`
    : error.message;
  return (
    <div className="space-y-3">
      <ErrorNotice title="This job could not be loaded" message={message} />
      <div className="flex gap-3">
        <Button variant="secondary" onClick={reset}>
          Try again
        </Button>
        <Link href="/jobs" className="py-1.5 text-sm underline">
          Back to jobs
        </Link>
      </div>
    </div>
  );
}
