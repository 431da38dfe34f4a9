// npm run user -- add|list|disable|enable|reset-password|token … — accounts for people without a browser
// (lib/auth/user-cli.ts). Exit 0 done, 1 failed, 2 bad usage.
import { userCli } from "@/lib/auth";
import { disconnectAll } from "@/lib/db";

void userCli(process.argv.slice(2), {
  stdin: process.stdin,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (text) => process.stderr.write(text),
}).then(async (code) => {
  await disconnectAll().catch(() => undefined);
  process.exit(code);
});
