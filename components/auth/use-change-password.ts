"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { postParsed } from "@/lib/browser/client";
import type { ChangePassword } from "@/lib/auth/client";
import { accountKeys } from "./query-keys";

/** POST /api/auth/password; one's other sessions end, so the sessions list changes too. */
export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangePassword) =>
      postParsed("/api/auth/password", z.object({ endedSessions: z.number() }), body),
    gcTime: 0,
    onSettled: () => client.invalidateQueries({ queryKey: accountKeys.sessions() }),
  });
}
