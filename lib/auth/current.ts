import "server-only";
import type { Principal } from "./principal";
import { principalOf } from "./resolve";
import { SESSION_COOKIE } from "./session";

/** The signed-in person (or token) for a page; redirects to the login otherwise (the proxy checks first). */
export async function requireOperator(): Promise<Principal> {
  // Loaded here, not at the top: Next's request APIs exist only inside a request, and the command-line
  // tools that import lib/auth must not load them (next/navigation needs React's client build).
  const [{ cookies, headers }, { redirect }] = await Promise.all([import("next/headers"), import("next/navigation")]);
  const p = await principalOf(await headers(), (await cookies()).get(SESSION_COOKIE)?.value);
  if (!p) return redirect("/login");
  return p;
}
