"use client";

import { errorText } from "@/lib/browser/client";
import { RunsTable } from "@/components/runs/runs-table";
import { useRuns } from "@/components/runs/use-runs";
import { CursorPager, useCursorStack } from "@/components/ui/cursor-pager";
import { ErrorNotice, Skeleton } from "@/components/ui/feedback";

export function RunsClient() {
  const pages = useCursorStack("runs");
  const runs = useRuns(pages.cursor);
  return (
    <div className="space-y-2">
      {runs.error && <ErrorNotice title="Could not load the runs" message={errorText(runs.error)} />}
      {!runs.data && !runs.error && <Skeleton className="h-32 w-full" />}
      {runs.data && <RunsTable runs={runs.data.items} />}
      <CursorPager
        label="Runs"
        page={pages.page}
        nextCursor={runs.data?.nextCursor}
        onOlder={pages.older}
        onNewer={pages.newer}
        onNewest={pages.newest}
        busy={runs.isFetching}
      />
    </div>
  );
}
