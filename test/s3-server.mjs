// An S3-compatible server (s3rver) in a process of its own, for the S3 sink's tests and bench/sinks.ts,
// as every other sink's service runs in its own: in the caller's process it would share one thread with
// the Tally under test, so each millisecond of Tally's work would be one the server cannot answer in.
// Prints its port, then serves until killed.
// Usage: node test/s3-server.mjs <directory>
import S3rver from "s3rver";

const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: process.argv[2] });
const { port } = await server.run();
process.stdout.write(`${port}\n`);
process.on("SIGTERM", () => void server.close().finally(() => process.exit(0)));
