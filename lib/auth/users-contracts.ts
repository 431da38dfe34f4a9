import { z } from "zod";
import { roleSchema } from "./roles";

// POST /api/users, POST /api/users/{id}/role, GET /api/users.

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+$/, { error: "email must look like name@example.com" });

export const newPasswordSchema = z.string().min(10, { error: "password must be at least 10 characters" }).max(1024);

export const createUserSchema = z.object({
  email: emailSchema,
  name: z.string().trim().min(1, { error: "name is required" }).max(100),
  role: roleSchema,
  password: newPasswordSchema,
});
export type CreateUser = z.infer<typeof createUserSchema>;

export const changePasswordSchema = z.object({
  currentPassword: z.string().min(1, { error: "enter your current password" }).max(1024),
  newPassword: newPasswordSchema,
});
export type ChangePassword = z.infer<typeof changePasswordSchema>;

export const setRoleSchema = z.object({ role: roleSchema });
/** POST /api/users/{id}/reset-password (admin). */
export const resetPasswordSchema = z.strictObject({ password: newPasswordSchema });

/** POST /api/auth/sessions/revoke-all: `revokeTokens` revokes the caller's personal API tokens too. */
export const revokeAllSchema = z.strictObject({
  revokeTokens: z.boolean({ error: "revokeTokens must be true or false" }).optional(),
});

export const userParamsSchema = z.object({ id: z.string().min(1).max(64) });

export const userRowSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  disabled: z.boolean(),
  createdAt: z.string(),
});
export type UserRow = z.infer<typeof userRowSchema>;
