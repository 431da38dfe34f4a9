import { MeProvider } from "@/components/auth/role-context";
import { UserMenu } from "@/components/auth/user-menu";
import { Nav } from "@/components/nav";
import { Providers } from "@/components/providers";
import { requireOperator } from "@/lib/auth/current";
import { meOf } from "@/lib/auth/principal";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const me = meOf(await requireOperator());
  return (
    <Providers>
      <MeProvider me={me}>
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-3 px-4 py-3">
            <span className="mr-2 text-lg font-semibold">Tally</span>
            <Nav />
            <div className="ml-auto">
              <UserMenu />
            </div>
          </div>
        </header>
        <main className="mx-auto max-w-7xl px-4 py-6">{children}</main>
      </MeProvider>
    </Providers>
  );
}
