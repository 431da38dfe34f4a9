// npm run db:copy -- --from file:./data/tally.db --to postgresql://user@host:5432/tally [--batch 2000]
// Copies a stopped SQLite Tally into an empty, migrated PostgreSQL database (lib/db-copy).
// Exit codes: 0 copied and verified; 1 the copy failed or the counts differ (rolled back);
// 2 refused before writing anything (bad arguments, wrong URLs, unmigrated or non-empty target, busy source).
import { parseArgs } from "node:util";
import { redactUrl } from "@/lib/config";
import { TallyError } from "@/lib/errors";
import { copyDatabase, DEFAULT_BATCH } from "@/lib/db-copy";

const USAGE = "npm run db:copy -- --from file:./data/tally.db --to postgresql://user@host:5432/tally [--batch 2000]";

function refuse(message: string): never {
  process.stderr.write(`db:copy: ${message}\nusage: ${USAGE}\n`);
  process.exit(2);
}

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: { from: { type: "string" }, to: { type: "string" }, batch: { type: "string" } },
      strict: true,
    }));
  } catch (err) {
    refuse((err as Error).message);
  }
  if (!values.from || !values.to) refuse("both --from and --to are required");
  const batchSize = values.batch === undefined ? DEFAULT_BATCH : Number(values.batch);
  try {
    const report = await copyDatabase({
      from: values.from,
      to: values.to,
      batchSize,
      print: (l) => process.stdout.write(`${l}\n`),
    });
    process.exit(report.ok ? 0 : 1);
  } catch (err) {
    // Messages never carry the URL's password: lib/ prints URLs through redactUrl; pg's errors do not echo it.
    const message = (err as Error).message.replaceAll(values.to, redactUrl(values.to));
    if (err instanceof TallyError) refuse(message);
    process.stderr.write(`db:copy: ${message}\n`);
    process.exit(1);
  }
}

void main();
