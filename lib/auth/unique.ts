/** P2002 from either store's client (their error classes differ, the code does not). */
export const isUniqueViolation = (err: unknown) =>
  typeof err === "object" && err !== null && "code" in err && err.code === "P2002";
