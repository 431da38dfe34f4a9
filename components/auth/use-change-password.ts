"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { postParsed } from "@/lib/browser/client";
import type { ChangePassword } from "@/lib/auth/client";
import { accountKeys } from "./query-keys";

/** POST /api/auth/password; one's other sessions and tokens end, so those lists change too. */
export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangePassword) =>
      postParsed("/api/auth/password", z.object({ endedSessions: z.number(), revokedTokens: z.number() }), body),
    gcTime: 0,
    onSettled: async () => {
      await client.invalidateQueries({ queryKey: accountKeys.sessions() });
      await client.invalidateQueries({ queryKey: accountKeys.tokens() });
    },
  });
}
