import { z } from "zod";

// GET /api/auth/sessions. A session is named by the first 16 hex digits of its row id (the row id is
// the SHA-256 of the cookie, so even the full id opens nothing).

export const sessionRowSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  clientAddress: z.string(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  current: z.boolean(),
});
export type SessionRow = z.infer<typeof sessionRowSchema>;
export const sessionParamsSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{16}$/, { error: "a session id is 16 hex digits" }),
});
