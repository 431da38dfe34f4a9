import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import Link from "next/link";
import { ChannelList } from "@/components/alerts/channel-list";
import { PageHeader } from "@/components/empty-state";
import { ConfigTable, SecretsTable } from "@/components/settings/config-table";
import { settingsKeys } from "@/components/settings/query-keys";
import { ModeSummary } from "@/components/settings/mode-summary";
import { BodyStoreSummary } from "@/components/settings/body-store-summary";
import { accountKeys } from "@/components/auth/query-keys";
import { PasswordForm } from "@/components/auth/password-form";
import { SessionsPanel } from "@/components/auth/sessions-panel";
import { listSessions, requireOperator } from "@/lib/auth";
import { Card } from "@/components/ui/card";
import { settingsView } from "@/lib/settings";
import { SimulatorKnobsClient } from "./client";

export const metadata: Metadata = { title: "Settings" };

export default async function Page() {
  const me = await requireOperator();
  const view = await settingsView(undefined, me.role);
  const queries = new QueryClient();
  queries.setQueryData(accountKeys.sessions(), { items: await listSessions(me) });
  if (view.knobs) queries.setQueryData(settingsKeys.simulator(), view.knobs);
  return (
    <>
      <PageHeader title="Settings" />
      <div className="space-y-6">
        <Card title="Accounts">
          <p className="text-sm text-slate-600">
            {me.role === "admin" && (
              <>
                <Link className="font-medium text-brand-700 underline" href="/settings/users">
                  Users
                </Link>{" "}
                (who can sign in, and their roles) ·{" "}
              </>
            )}
            <Link className="font-medium text-brand-700 underline" href="/settings/tokens">
              API tokens
            </Link>{" "}
            (for scripts)
          </p>
        </Card>
        {me.kind === "user" && (
          <Card title="Your password">
            <PasswordForm />
          </Card>
        )}
        <div id="sessions" className="scroll-mt-4">
          <Card title="Sessions">
            <HydrationBoundary state={dehydrate(queries)}>
              <SessionsPanel />
            </HydrationBoundary>
          </Card>
        </div>
        <Card title="Mode">
          <ModeSummary view={view} />
        </Card>
        <Card title="Page bodies">
          <BodyStoreSummary store={view.bodyStore} />
        </Card>
        {view.mode === "demo" && (
          <Card title="Simulator faults">
            <HydrationBoundary state={dehydrate(queries)}>
              <SimulatorKnobsClient initialError={view.knobsError} />
            </HydrationBoundary>
          </Card>
        )}
        <Card title="Webhook secrets">
          <SecretsTable subscriptions={view.subscriptions} />
        </Card>
        <Card title="Alert channels">
          <p className="mb-3 text-sm text-slate-600">
            Where alerts go; secrets are masked. Send a test from the{" "}
            <Link href="/alerts" className="text-brand-600 underline">
              Alerts page
            </Link>
            .
          </p>
          <ChannelList channels={view.alertChannels} />
        </Card>
        <Card title="Effective configuration">
          <p className="mb-3 text-sm text-slate-600">
            Read from the environment at start-up; change a variable and restart to change it.
          </p>
          <ConfigTable settings={view.settings} />
        </Card>
      </div>
    </>
  );
}
