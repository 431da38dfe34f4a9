// Which Node runs Tally: the supported lines are the current LTS ones (package.json's "engines" says
// the same, a test keeps them equal). An older Node that still runs everything (20.19 or later: what
// Prisma 6.19 and Next 16 need) gets a one-line warning, so `npm install && npm start` keeps working
// on a machine whose Node is past its end of life; anything older stops at once, naming what it needs.

export const SUPPORTED_RANGE = "^22.14.0 || ^24.0.0";
const SUPPORTED_MAJORS = { 22: 14, 24: 0 }; // major → lowest minor
const RUNS_FROM = [20, 19];

/** null when `version` (like process.version) is supported; else what to say, and whether to stop. */
export function nodeVersionProblem(version) {
  const [major, minor] = version.replace(/^v/, "").split(".").map(Number);
  const supported = "Tally supports Node 22 (22.14 or later) and 24";
  if (major in SUPPORTED_MAJORS && minor >= SUPPORTED_MAJORS[major]) return null;
  if (major < RUNS_FROM[0] || (major === RUNS_FROM[0] && minor < RUNS_FROM[1]))
    return { fatal: true, message: `Node ${version} is too old to run Tally: ${supported} (20.19 at the least).` };
  if (major > 24) return { fatal: false, message: `Node ${version} is newer than Tally is tested on: ${supported}.` };
  if (major === 20)
    return { fatal: false, message: `Node ${version} is past its end of life (April 2026): ${supported}.` };
  return { fatal: false, message: `Node ${version} is not a supported line: ${supported}.` };
}

/** Prints the warning, or the reason and exits 1. */
export function checkNodeVersion(version = process.version) {
  const problem = nodeVersionProblem(version);
  if (!problem) return;
  process.stderr.write(`${problem.fatal ? "✗" : "Warning:"} ${problem.message}\n`);
  if (problem.fatal) process.exit(1);
}
