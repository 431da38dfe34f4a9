import Link from "next/link";
import { MeProvider } from "@/components/auth/role-context";
import { UserMenu } from "@/components/auth/user-menu";
import { Nav } from "@/components/nav";
import { Providers } from "@/components/providers";
import { meOf, requireOperator } from "@/lib/auth";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const me = meOf(await requireOperator());
  return (
    <Providers>
      <MeProvider me={me}>
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-3 px-4 py-3">
            <Link href="/" className="mr-2 flex items-center gap-2 text-lg font-semibold">
              {/* eslint-disable-next-line @next/next/no-img-element -- a 24 px static SVG, no optimisation to gain */}
              <img src="/icon.svg" alt="" width={24} height={24} />
              Tally
            </Link>
            <Nav>
              <UserMenu />
            </Nav>
          </div>
        </header>
        <main className="mx-auto max-w-7xl px-4 py-6">{children}</main>
      </MeProvider>
    </Providers>
  );
}
