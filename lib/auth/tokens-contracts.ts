import { z } from "zod";
import { roleSchema } from "./roles";

// POST /api/tokens → 201 {"id","token"} (the token shown this once); GET /api/tokens; POST /api/tokens/{id}/revoke.

export const createTokenSchema = z.object({
  name: z
    .string({ error: "name is required" })
    .trim()
    .min(1, { error: "name is required" })
    .max(60)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { error: "name: letters, digits, dot, dash and underscore" }),
  role: roleSchema,
  expiresInDays: z
    .number({ error: "expiresInDays must be a number of days" })
    .int({ error: "expiresInDays must be a whole number of days" })
    .min(1, { error: "expiresInDays must be at least 1" })
    .max(3650, { error: "expiresInDays must be at most 3650 (ten years)" })
    .optional(),
});
export type CreateToken = z.infer<typeof createTokenSchema>;
/** POST /api/tokens: the whole token, in this answer only. */
export const createdTokenSchema = z.object({
  id: z.string(),
  token: z.string(),
  name: z.string(),
  role: z.string(),
  expiresAt: z.string().nullable(),
});
/** POST /api/tokens/{id}/revoke. */
export const revokedTokenSchema = z.object({ id: z.string(), name: z.string() });
export const tokenParamsSchema = z.object({ id: z.string().min(1).max(64) });

export const tokenRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: roleSchema,
  last4: z.string(),
  owner: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  state: z.enum(["active", "expired", "revoked"]),
});
export type TokenRow = z.infer<typeof tokenRowSchema>;
