"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";

/**
 * A secret shown once, right after it was created: masked until the operator asks, copyable, and
 * held only in this component's state, so a reload or "Done" forgets it for good.
 */
export function OneTimeSecret({
  secret,
  onDismiss,
  warning,
}: {
  secret: string;
  onDismiss: () => void;
  warning?: string;
}) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");
  const masked = `${"•".repeat(Math.max(8, Math.min(24, secret.length - 4)))}${secret.slice(-4)}`;

  async function copyToClipboard() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopy("copied");
    } catch {
      setCopy("failed");
    }
  }

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm"
    >
      <h3 id={`${id}-title`} className="font-semibold text-amber-900">
        New secret: shown only this once
      </h3>
      <p className="mt-1 text-amber-900">
        {warning ?? "Tally has stored it. Copy it now if another system needs it; it will not be shown again."}
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code
          id={`${id}-value`}
          data-testid="one-time-secret"
          className="break-all rounded bg-white px-2 py-1 font-mono"
          aria-label={shown ? "New secret" : "New secret, hidden"}
        >
          {shown ? secret : masked}
        </code>
        <Button variant="secondary" aria-pressed={shown} aria-controls={`${id}-value`} onClick={() => setShown(!shown)}>
          {shown ? "Hide" : "Show"}
        </Button>
        <Button variant="secondary" onClick={copyToClipboard}>
          Copy
        </Button>
        <Button variant="ghost" onClick={onDismiss}>
          Done, forget it
        </Button>
      </div>
      <p role="status" className="mt-1 text-xs text-amber-900">
        {copy === "copied"
          ? "Copied to the clipboard."
          : copy === "failed"
            ? "The browser refused the clipboard; use Show and copy it by hand."
            : ""}
      </p>
    </section>
  );
}
