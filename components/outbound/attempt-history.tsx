"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { attemptListSchema } from "@/lib/outbound/client";
import { errorText, getParsed } from "@/lib/browser/client";
import { HttpStatusBadge } from "@/components/ui/badge";
import { Time } from "@/components/ui/time";
import { outboundKeys } from "./query-keys";

/** A delivery's attempts, loaded when the operator opens them. */
export function AttemptHistory({ deliveryId, attempts }: { deliveryId: number; attempts: number }) {
  const [open, setOpen] = useState(false);
  const q = useQuery({
    queryKey: outboundKeys.attempts(deliveryId, attempts),
    queryFn: ({ signal }) => getParsed(`/api/outbound/${deliveryId}`, attemptListSchema, signal),
    enabled: open,
  });
  if (attempts === 0) return <span className="tabular-nums">0</span>;
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)} className="text-xs">
      <summary className="cursor-pointer tabular-nums">{attempts}</summary>
      {q.error && (
        <p role="alert" className="text-red-700">
          {errorText(q.error)}
        </p>
      )}
      <ol className="mt-1 space-y-1 text-left">
        {q.data?.items.map((a) => (
          <li key={a.attempt} className="whitespace-nowrap">
            #{a.attempt} <HttpStatusBadge status={a.statusCode} /> {a.latencyMs} ms · <Time iso={a.at} />
            {a.error && <div className="max-w-64 whitespace-normal break-words text-red-800">{a.error}</div>}
          </li>
        ))}
      </ol>
    </details>
  );
}
