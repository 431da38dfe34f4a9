// lib/auth's surface for client components (no server code): what other folders and the browser may import.
export {
  isRole,
  type Me,
  meSchema,
  type Role,
  ROLE_SUMMARY,
  roleAtLeast,
  ROLES,
  roleSchema,
  seesInternalDetail,
} from "./roles";
export { sessionParamsSchema, sessionRowSchema } from "./sessions-contracts";
export {
  createdTokenSchema,
  type CreateToken,
  createTokenSchema,
  revokedTokenSchema,
  tokenParamsSchema,
  tokenRowSchema,
} from "./tokens-contracts";
export {
  type ChangePassword,
  changePasswordSchema,
  type CreateUser,
  createUserSchema,
  emailSchema,
  resetPasswordSchema,
  revokeAllSchema,
  setRoleSchema,
  userParamsSchema,
  userRowSchema,
} from "./users-contracts";
