import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import type { Principal } from "./principal";
import { principalOf } from "./resolve";
import { SESSION_COOKIE } from "./session";

/** The signed-in person (or token) for a page; redirects to the login otherwise (the proxy checks first). */
export async function requireOperator(): Promise<Principal> {
  const p = await principalOf(await headers(), (await cookies()).get(SESSION_COOKIE)?.value);
  if (!p) redirect("/login");
  return p;
}
