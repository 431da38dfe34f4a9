// A child process for test/one-writer.test.ts: writes through the app's connection (lib/db.ts), prints
// "answered <action>" after each write is answered, opens a transaction that stays open (printing
// "open"), and keeps writing outside it until the parent SIGKILLs it. Every write it answered must be
// in the file afterwards.
import { db, transaction } from "@/lib/db";

let n = 0;
async function write(): Promise<void> {
  const action = `w${n++}`;
  await db().auditLog.create({ data: { actor: "child", action } });
  process.stdout.write(`answered ${action}\n`);
}

async function main() {
  for (let i = 0; i < 5; i++) await write();
  let opened: () => void = () => undefined;
  const open = new Promise<void>((r) => (opened = r));
  // The transaction writes, then waits for ever (until the kill).
  void transaction(async (tx) => {
    await tx.auditLog.create({ data: { actor: "child-tx", action: "uncommitted" } });
    opened();
    await new Promise(() => undefined);
  });
  await open;
  process.stdout.write("open\n");
  for (;;) await write();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
