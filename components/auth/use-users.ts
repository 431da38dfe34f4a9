"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { getParsed, postParsed } from "@/lib/browser/client";
import { type CreateUser, type Role, userRowSchema } from "@/lib/auth/client";
import { accountKeys } from "./query-keys";

const listSchema = z.object({ items: z.array(userRowSchema) });

export function useUsers() {
  return useQuery({
    queryKey: accountKeys.users(),
    queryFn: ({ signal }) => getParsed("/api/users", listSchema, signal),
  });
}

/** POST /api/users (admin). The password is not kept in the cache once settled. */
export function useCreateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateUser) => postParsed("/api/users", userRowSchema, body),
    gcTime: 0,
    onSettled: () => client.invalidateQueries({ queryKey: accountKeys.users() }),
  });
}

export function useDisableUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => postParsed(`/api/users/${encodeURIComponent(id)}/disable`, userRowSchema),
    onSettled: () => client.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

const resetAnswer = z.object({
  id: z.string(),
  email: z.string(),
  sessionsEnded: z.number(),
  tokensRevoked: z.number(),
});

/** POST /api/users/{id}/reset-password (admin): their sessions end and their tokens are revoked. */
export function useResetPassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, password }: { id: string; password: string }) =>
      postParsed(`/api/users/${encodeURIComponent(id)}/reset-password`, resetAnswer, { password }),
    gcTime: 0,
    onSettled: () => client.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

export function useSetRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: Role }) =>
      postParsed(`/api/users/${encodeURIComponent(id)}/role`, userRowSchema, { role }),
    onSettled: () => client.invalidateQueries({ queryKey: accountKeys.users() }),
  });
}
