"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { subscriptionItemSchema } from "@/lib/subscriptions/client";
import { postParsed } from "@/lib/browser/client";
import { subscriptionKeys } from "./query-keys";

const registeredSchema = z.object({
  runId: z.string().optional(),
  registered: z.array(z.string()).default([]),
  repaired: z.array(z.string()).default([]),
  items: z.array(subscriptionItemSchema).optional(),
});

/** POST /api/subscriptions/register: adds the missing event types' subscriptions at Tally's public URL. */
export function useRegisterWebhooks() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => postParsed("/api/subscriptions/register", registeredSchema),
    onSuccess: (r) => {
      if (r.items) client.setQueryData(subscriptionKeys.list(), { items: r.items });
      return client.invalidateQueries({ queryKey: subscriptionKeys.all });
    },
  });
}
