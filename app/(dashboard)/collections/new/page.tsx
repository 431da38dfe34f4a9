import type { Metadata } from "next";
import Link from "next/link";
import { Can } from "@/components/auth/role-context";
import { PageHeader } from "@/components/empty-state";
import { CollectionForm } from "@/components/collections/collection-form";
import { Card } from "@/components/ui/card";

export const metadata: Metadata = { title: "New collection" };

export default function Page() {
  return (
    <div className="space-y-4">
      <Link href="/collections" className="text-sm text-brand-600 underline">
        ← Collections
      </Link>
      <PageHeader title="New collection" />
      <p className="-mt-2 max-w-2xl text-sm text-slate-600">
        A named list of URLs, run now or on a schedule. Each run is compared with the one before: which pages are new,
        which changed, which are gone.
      </p>
      <Can
        role="operator"
        fallback={<p className="text-sm text-slate-700">Making collections needs the operator role; ask an admin.</p>}
      >
        <Card>
          <CollectionForm c={null} />
        </Card>
      </Can>
    </div>
  );
}
