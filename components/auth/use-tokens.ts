"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { getParsed, postParsed } from "@/lib/browser/client";
import { type CreateToken, roleSchema, tokenRowSchema } from "@/lib/auth/client";
import { accountKeys } from "./query-keys";

const listSchema = z.object({ items: z.array(tokenRowSchema) });
const createdSchema = z.object({
  id: z.string(),
  token: z.string(),
  name: z.string(),
  role: roleSchema,
  expiresAt: z.string().nullable(),
});

export function useTokens() {
  return useQuery({
    queryKey: accountKeys.tokens(),
    queryFn: ({ signal }) => getParsed("/api/tokens", listSchema, signal),
  });
}

/** POST /api/tokens → the token, shown once by the caller; nothing of it stays in the cache. */
export function useCreateToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateToken) => postParsed("/api/tokens", createdSchema, body),
    gcTime: 0,
    onSettled: () => client.invalidateQueries({ queryKey: accountKeys.tokens() }),
  });
}

export function useRevokeToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      postParsed(`/api/tokens/${encodeURIComponent(id)}/revoke`, z.object({ id: z.string(), name: z.string() })),
    onSettled: () => client.invalidateQueries({ queryKey: accountKeys.tokens() }),
  });
}
