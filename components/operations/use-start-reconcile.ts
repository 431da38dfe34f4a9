"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { reconcileBodySchema, startedSchema } from "@/lib/operations/client";
import { postParsed } from "@/lib/browser/client";
import { operationKeys } from "./query-keys";

export type ReconcileInput = z.input<typeof reconcileBodySchema>;

/** POST /api/operations/reconcile → {runId}; a run already going is joined, not doubled (server side). */
export function useStartReconcile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ReconcileInput) =>
      postParsed("/api/operations/reconcile", startedSchema, reconcileBodySchema.parse(body)),
    onSuccess: () => client.invalidateQueries({ queryKey: operationKeys.histories() }),
  });
}
