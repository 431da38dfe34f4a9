import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { accountKeys } from "@/components/auth/query-keys";
import { CreateTokenForm, TokensTable } from "@/components/auth/tokens-panel";
import { PageHeader } from "@/components/empty-state";
import { Card } from "@/components/ui/card";
import { listTokens, requireOperator } from "@/lib/auth";

export const metadata: Metadata = { title: "API tokens" };

export default async function Page() {
  const me = await requireOperator();
  const queries = new QueryClient();
  queries.setQueryData(accountKeys.tokens(), { items: await listTokens(me) });
  return (
    <>
      <PageHeader title="API tokens" />
      <div className="space-y-6">
        <Card title="New token">
          <p className="mb-3 text-sm text-slate-600">
            For scripts: a token acts with its own role, never above yours. It is shown once; Tally stores only its
            hash.
          </p>
          <CreateTokenForm />
        </Card>
        <Card title={me.role === "admin" ? "All tokens" : "Your tokens"}>
          <HydrationBoundary state={dehydrate(queries)}>
            <TokensTable />
          </HydrationBoundary>
        </Card>
      </div>
    </>
  );
}
