import type { Metadata } from "next";
import Link from "next/link";
import { Can } from "@/components/auth/role-context";
import { PageHeader } from "@/components/empty-state";
import { NewRunForm } from "@/components/runs/new-run-form";
import { getConfig } from "@/lib/config";

export const metadata: Metadata = { title: "New run" };

export const dynamic = "force-dynamic";

export default function Page() {
  const maxUrls = getConfig().TALLY_RUN_MAX_URLS;
  return (
    <div className="space-y-4">
      <Link href="/runs" className="text-sm text-brand-600 underline">
        ← Runs
      </Link>
      <PageHeader title="New run" />
      <p className="-mt-2 max-w-2xl text-sm text-slate-600">
        Paste a list of URLs or upload a file (up to {maxUrls.toLocaleString("en")} URLs). Tally shows what it found
        before anything is sent: how many URLs, the duplicates it will send once, and the lines that are not URLs.
      </p>
      <Can
        role="operator"
        fallback={<p className="text-sm text-slate-700">Starting runs needs the operator role; ask an admin.</p>}
      >
        <NewRunForm maxUrls={maxUrls} />
      </Can>
    </div>
  );
}
