import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { bearerActor, SESSION_COOKIE, verifySessionToken } from "./session";

/** The signed-in operator for a page; redirects to the login otherwise (the proxy checks first). */
export async function requireOperator(): Promise<string> {
  const bearer = bearerActor((await headers()).get("authorization"));
  if (bearer) return bearer;
  const actor = await verifySessionToken((await cookies()).get(SESSION_COOKIE)?.value);
  if (!actor) redirect("/login");
  return actor;
}
