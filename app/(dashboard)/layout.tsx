import { LogoutButton, Nav } from "@/components/nav";
import { Providers } from "@/components/providers";
import { requireOperator } from "@/lib/auth/current";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  await requireOperator();
  return (
    <Providers>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-3 px-4 py-3">
          <span className="mr-2 text-lg font-semibold">Tally</span>
          <Nav />
          <div className="ml-auto">
            <LogoutButton />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-7xl px-4 py-6">{children}</main>
    </Providers>
  );
}
