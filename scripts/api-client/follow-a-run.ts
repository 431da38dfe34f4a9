// The typed client's example in docs/api.md: create a run, follow it to the end. Try it against `npm start`:
//   TALLY_URL=http://localhost:3000 TALLY_API_TOKEN=tly_… npx tsx scripts/api-client/follow-a-run.ts
// test/api-client.test.ts runs it against a demo Tally and checks docs/api.md shows this very code.
import { createTallyClient, unwrap } from "@/lib/api-client";

const tally = createTallyClient({
  baseUrl: process.env.TALLY_URL ?? "http://localhost:3000",
  token: process.env.TALLY_API_TOKEN,
});
async function main() {
  const urls = ["https://example.com/a", "https://example.com/b"];
  const { id } = await unwrap(tally.POST("/api/runs", { body: { name: "docs example", urls } }));
  for (;;) {
    const run = await unwrap(tally.GET("/api/runs/{runId}", { params: { path: { runId: id } } }));
    console.log(`run ${id} ${run.state}: ${run.counts.stored} of ${run.total} stored, ${run.counts.failed} failed`);
    if (run.state === "completed" || run.state === "cancelled") return run.counts.stored === run.total;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
main().then((allStored) => process.exit(allStored ? 0 : 1));
