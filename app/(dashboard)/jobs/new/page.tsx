import type { Metadata } from "next";
import Link from "next/link";
import { Can } from "@/components/auth/role-context";
import { PageHeader } from "@/components/empty-state";
import { NewJobForm } from "@/components/jobs/new-job-form";

export const metadata: Metadata = { title: "New job" };

export default function Page() {
  return (
    <div className="space-y-4">
      <Link href="/jobs" className="text-sm text-brand-600 underline">
        ← Jobs
      </Link>
      <PageHeader title="New job" />
      <p className="-mt-2 max-w-2xl text-sm text-slate-600">
        Submitted to the platform as an asynchronous job; Tally follows it to its outcome like any other.
      </p>
      <Can
        role="operator"
        fallback={<p className="text-sm text-slate-700">Submitting jobs needs the operator role; ask an admin.</p>}
      >
        <NewJobForm />
      </Can>
    </div>
  );
}
