"use client";

import { useEffect, useState } from "react";

/** Seconds left until `until`, ticking every second; "any moment now" once it has passed. */
export function Countdown({ until, label }: { until: string; label: string }) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    // first tick at once, after hydration (the server render shows nothing, so both agree)
    const first = setTimeout(() => setNow(Date.now()), 0);
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => {
      clearTimeout(first);
      clearInterval(t);
    };
  }, []);
  if (now === null) return null;
  const left = Math.max(0, Math.ceil((Date.parse(until) - now) / 1000));
  return (
    <span role="timer" aria-live="off" className="tabular-nums" data-testid="countdown">
      {left > 0 ? `${label} in ${left} s` : `${label} any moment now`}
    </span>
  );
}
