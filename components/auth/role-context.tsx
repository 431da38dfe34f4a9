"use client";

import { createContext, useContext } from "react";
import { type Me, type Role, roleAtLeast } from "@/lib/auth/client";

// Who is signed in, for hiding what their role cannot do. Only a convenience: every action is
// checked again on the server (403 {"error":"forbidden"}).

const MeContext = createContext<Me | null>(null);

export function MeProvider({ me, children }: { me: Me; children: React.ReactNode }) {
  return <MeContext.Provider value={me}>{children}</MeContext.Provider>;
}

export function useMe(): Me | null {
  return useContext(MeContext);
}

/** Whether the signed-in role is `role` or above (false outside the dashboard). */
export function useCan(role: Role): boolean {
  const me = useMe();
  return me !== null && roleAtLeast(me.role, role);
}

/** Renders its children only for `role` and above (`fallback`, if any, for the others). */
export function Can({
  role,
  children,
  fallback = null,
}: {
  role: Role;
  children: React.ReactNode;
  fallback?: React.ReactNode;
}) {
  return <>{useCan(role) ? children : fallback}</>;
}
