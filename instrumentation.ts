// Runs once per server process under `npm start` (server.ts) / `next start` / `next dev` (not during `next build`).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { boot } = await import("./lib/boot");
  await boot();
}
