import { MeProvider } from "@/components/auth/role-context";
import { UserMenu } from "@/components/auth/user-menu";
import { Shell } from "@/components/nav/nav";
import { Providers } from "@/components/providers";
import { meOf, requireOperator } from "@/lib/auth";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const me = meOf(await requireOperator());
  return (
    <Providers>
      <MeProvider me={me}>
        <Shell account={<UserMenu />}>{children}</Shell>
      </MeProvider>
    </Providers>
  );
}
