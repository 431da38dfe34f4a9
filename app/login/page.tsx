import type { Metadata } from "next";
import { safeNextPath } from "@/lib/auth";
import { LoginForm } from "./client";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  // Only same-origin paths: an open redirect would hand the session's first click to anyone.
  const target = safeNextPath(next);
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="w-full max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-xl font-semibold">Tally</h1>
        <p className="mt-1 text-sm text-slate-600">Sign in with your account.</p>
        <LoginForm next={target} />
      </div>
    </main>
  );
}
