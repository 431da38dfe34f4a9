// Makes sure a promtool exists for test/deploy-rules.test.ts (it checks and unit-tests the Prometheus
// rules in deploy/): PROMTOOL_PATH, else one on the system, else one already unpacked here, else
// Debian's `prometheus` package downloaded with apt and only its promtool unpacked into
// node_modules/.cache (nothing is installed system-wide and no Prometheus server is started).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";

const SYSTEM = ["/usr/bin/promtool", "/usr/local/bin/promtool"];
const CACHE = path.resolve("node_modules/.cache/tally-promtool");
const UNPACKED = path.join(CACHE, "promtool");

const works = (p) => spawnSync(p, ["--version"], { stdio: "ignore" }).status === 0;

export function findPromtool() {
  const candidates = [process.env.PROMTOOL_PATH, ...SYSTEM, UNPACKED].filter(Boolean);
  return candidates.find((p) => existsSync(p) && works(p)) ?? null;
}

/** Downloads Debian's prometheus .deb into a temp folder and moves its promtool into the cache. */
function unpackFromDebian() {
  mkdirSync(CACHE, { recursive: true });
  const tmp = mkdtempSync(path.join(CACHE, "download-"));
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    const download = () => spawnSync("apt-get", ["download", "prometheus"], { cwd: tmp, stdio: "inherit", env });
    let got = download();
    const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
    if (got.status !== 0 && isRoot) {
      console.log("apt-get download failed; updating the package lists and trying again…");
      if (spawnSync("apt-get", ["update"], { stdio: "inherit", env }).status === 0) got = download();
    }
    const deb = got.status === 0 ? readdirSync(tmp).find((f) => f.endsWith(".deb")) : undefined;
    if (!deb) return false;
    execFileSync("dpkg", ["-x", path.join(tmp, deb), path.join(tmp, "x")]);
    // Atomic: two test runs side by side (SQLite and PostgreSQL) may both get here.
    renameSync(path.join(tmp, "x/usr/bin/promtool"), UNPACKED);
    return true;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

export function ensurePromtool() {
  let found = findPromtool();
  if (found) return { path: found, how: "already on this machine" };
  if (existsSync("/usr/bin/apt-get") && existsSync("/usr/bin/dpkg")) {
    console.log("No promtool found; unpacking it from Debian's prometheus package…");
    found = unpackFromDebian() ? findPromtool() : null;
    if (found) return { path: found, how: "unpacked from Debian's prometheus package" };
  }
  return null;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = ensurePromtool();
  if (!result) {
    console.error(
      "No promtool available: `apt-get install prometheus` (Debian) or set PROMTOOL_PATH; the rules in deploy/ cannot be tested without it.",
    );
    process.exit(1);
  }
  console.log(`promtool for the Prometheus rules: ${result.path} (${result.how})`);
}
