"use client";

import { Can } from "@/components/auth/role-context";
import { AuditTable } from "@/components/operations/audit-table";
import { ReconcilePanel } from "@/components/operations/reconcile-panel";
import { RunHistory } from "@/components/operations/run-history";
import { Card } from "@/components/ui/card";

export function OperationsClient() {
  return (
    <div className="space-y-6">
      <Card title="Reconciliation">
        <Can role="operator">
          <ReconcilePanel />
        </Can>
      </Card>
      <Card title="Runs">
        <RunHistory />
      </Card>
      <Card title="Operator actions">
        <AuditTable />
      </Card>
    </div>
  );
}
