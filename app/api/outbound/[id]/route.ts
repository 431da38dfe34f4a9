// GET /api/outbound/:id — one delivery's attempts, oldest first: each answer, error and latency
import { attemptListSchema, deliveryAttempts } from "@/lib/outbound";
import { z } from "zod";
import { operatorRoute } from "@/lib/http";

export const dynamic = "force-dynamic";

const params = z.object({
  id: z.coerce
    .number({ error: "id must be a number" })
    .int()
    .positive({ error: "id must be a positive number" })
    .max(2 ** 53),
});

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "One outbound delivery's attempts, oldest first",
    answer: attemptListSchema,
    errors: [404],
    params,
  },
  async ({ params, principal }) => deliveryAttempts(params.id, principal.role),
);
