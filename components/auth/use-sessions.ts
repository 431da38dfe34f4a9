"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { getParsed, postParsed } from "@/lib/browser/client";
import { sessionRowSchema } from "@/lib/auth/client";
import { accountKeys } from "./query-keys";

const listSchema = z.object({ items: z.array(sessionRowSchema) });

export function useSessions() {
  return useQuery({
    queryKey: accountKeys.sessions(),
    queryFn: ({ signal }) => getParsed("/api/auth/sessions", listSchema, signal),
  });
}

export function useRevokeSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => postParsed(`/api/auth/sessions/${id}/revoke`, z.object({ status: z.string() })),
    onSettled: () => client.invalidateQueries({ queryKey: accountKeys.sessions() }),
  });
}

/** Sign out everywhere: this browser's session ends too (the caller goes to the login). */
export function useRevokeAll() {
  return useMutation({
    mutationFn: (opts: { revokeTokens: boolean }) =>
      postParsed("/api/auth/sessions/revoke-all", z.object({ revoked: z.number() }), opts),
  });
}
