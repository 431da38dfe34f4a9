import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { deadLetterKeys } from "@/components/dead-letters/query-keys";
import { PageHeader } from "@/components/empty-state";
import { ErrorNotice } from "@/components/ui/feedback";
import { deadLetterListQuerySchema, listDeadLetters } from "@/lib/dead-letters";
import { DeadLettersClient } from "./client";

export const metadata: Metadata = { title: "Dead letters" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function Page({ searchParams }: { searchParams: SearchParams }) {
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  const parsed = deadLetterListQuerySchema.safeParse(raw);
  // A bad link shows what was wrong and the default list, instead of an error page.
  const query = parsed.success ? parsed.data : deadLetterListQuerySchema.parse({});
  const queries = new QueryClient();
  queries.setQueryData(deadLetterKeys.list(query), await listDeadLetters(query));
  return (
    <>
      <PageHeader title="Dead letters" />
      {!parsed.success && (
        <div className="mb-4">
          <ErrorNotice
            title="Some filters in the address were not understood, so they are ignored"
            message={parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}
          />
        </div>
      )}
      <HydrationBoundary state={dehydrate(queries)}>
        <DeadLettersClient query={query} />
      </HydrationBoundary>
    </>
  );
}
