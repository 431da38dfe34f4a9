"use client";

import { useRouter } from "next/navigation";
import { useEffect, useTransition } from "react";
import { Button } from "@/components/ui/button";

// Server-rendered views (a jobs page, a job's detail) refresh by asking the server again: no second
// API for the same data, and the URL stays the single source of the filter and the cursor.

export function LiveRefresh({ everyMs, label = "Refresh" }: { everyMs?: number; label?: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  useEffect(() => {
    if (!everyMs) return;
    const t = setInterval(() => {
      if (document.visibilityState === "visible") start(() => router.refresh());
    }, everyMs);
    return () => clearInterval(t);
  }, [everyMs, router]);
  return (
    <div className="flex items-center gap-2 text-xs text-slate-500">
      {everyMs ? <span>refreshes every {Math.round(everyMs / 1000)} s</span> : null}
      <Button
        variant="secondary"
        pending={pending}
        pendingLabel="Refreshing…"
        onClick={() => start(() => router.refresh())}
      >
        {label}
      </Button>
    </div>
  );
}
