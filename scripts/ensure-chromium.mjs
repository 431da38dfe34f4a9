// Makes sure a Chromium exists for the end-to-end tests: one already on the system, else Playwright's
// own download, else (as root with apt) Debian's `chromium`. Prints which one it used.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const SYSTEM = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

export function findChromium() {
  if (process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
  const system = SYSTEM.find((p) => existsSync(p));
  if (system) return system;
  try {
    const out = execFileSync(
      process.execPath,
      ["-e", "process.stdout.write(require('playwright-core').chromium.executablePath())"],
      { encoding: "utf8" },
    );
    if (out && existsSync(out)) return out;
  } catch {
    // playwright-core not resolvable or no browser downloaded
  }
  return null;
}

function ensure() {
  let found = findChromium();
  if (found) return { path: found, how: "already on this machine" };

  console.log("No Chromium found; trying Playwright's own download…");
  const pw = spawnSync("npx", ["playwright", "install", "chromium"], { stdio: "inherit", timeout: 300_000 });
  found = pw.status === 0 ? findChromium() : null;
  if (found) return { path: found, how: "downloaded by Playwright" };

  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && existsSync("/usr/bin/apt-get")) {
    console.log("Playwright's download failed; installing Debian's chromium with apt-get…");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    const update = spawnSync("apt-get", ["update"], { stdio: "inherit", env });
    const install =
      update.status === 0 &&
      spawnSync("apt-get", ["install", "-y", "--no-install-recommends", "chromium"], { stdio: "inherit", env });
    found = install && install.status === 0 ? findChromium() : null;
    if (found) return { path: found, how: "installed from Debian's packages" };
  }
  return null;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = ensure();
  if (!result) {
    console.error("No Chromium available: install one (e.g. `apt-get install chromium`) or set CHROMIUM_PATH.");
    process.exit(1);
  }
  console.log(`Chromium for end-to-end tests: ${result.path} (${result.how})`);
}
