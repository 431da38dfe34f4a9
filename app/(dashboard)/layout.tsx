import Link from "next/link";
import { LogoutButton, Nav } from "@/components/nav";
import { Providers } from "@/components/providers";
import { requireOperator } from "@/lib/auth/current";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  await requireOperator();
  return (
    <Providers>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-3 px-4 py-3">
          <Link href="/" className="mr-2 flex items-center gap-2 text-lg font-semibold">
            {/* eslint-disable-next-line @next/next/no-img-element -- a 24 px static SVG, no optimisation to gain */}
            <img src="/icon.svg" alt="" width={24} height={24} />
            Tally
          </Link>
          <Nav>
            <LogoutButton />
          </Nav>
        </div>
      </header>
      <main className="mx-auto max-w-7xl px-4 py-6">{children}</main>
    </Providers>
  );
}
