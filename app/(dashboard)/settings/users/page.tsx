import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { accountKeys } from "@/components/auth/query-keys";
import { CreateUserForm, UsersTable } from "@/components/auth/users-admin";
import { PageHeader } from "@/components/empty-state";
import { Card } from "@/components/ui/card";
import { Notice } from "@/components/ui/feedback";
import { listUsers, requireOperator, ROLE_SUMMARY, ROLES } from "@/lib/auth";

export const metadata: Metadata = { title: "Users" };

export default async function Page() {
  const me = await requireOperator();
  if (me.role !== "admin") {
    return (
      <>
        <PageHeader title="Users" />
        <Notice tone="warn">Only an admin manages users. You are signed in as {me.role}.</Notice>
      </>
    );
  }
  const queries = new QueryClient();
  queries.setQueryData(accountKeys.users(), { items: await listUsers() });
  return (
    <>
      <PageHeader title="Users" />
      <div className="space-y-6">
        <Card title="Add a user">
          <ul className="mb-4 space-y-1 text-sm text-slate-600">
            {ROLES.map((r) => (
              <li key={r}>
                <span className="font-medium text-slate-800">{r}</span>: {ROLE_SUMMARY[r]}
              </li>
            ))}
          </ul>
          <CreateUserForm />
        </Card>
        <Card title="People who can sign in">
          <HydrationBoundary state={dehydrate(queries)}>
            <UsersTable />
          </HydrationBoundary>
        </Card>
      </div>
    </>
  );
}
