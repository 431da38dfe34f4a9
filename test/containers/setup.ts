// Builds what the container tests run, once per run: the local base images (cached across runs, keyed
// on their inputs: scripts/image.mjs), Tally's image from the repository's Dockerfile on them, and a
// PostgreSQL image from Debian's package (cached like the bases, keyed on its files and base). Tally's
// image is the test's own: removed at the end (its layers stay in the engine's build cache, so the
// next run rebuilds only what changed).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { buildImage, ensureLocalBase, imageExists, isPodman } from "../../scripts/image.mjs";
import { containersUnavailable, must, randomName, REQUIRED, sh } from "./harness";

const POSTGRES_DIR = path.join(import.meta.dirname, "postgres");

export type ContainerImages = { engine: string; tally: string; postgres: string; bases: Record<string, string> };

export default async function setup(project: TestProject) {
  const unavailable = containersUnavailable();
  if (unavailable) {
    if (REQUIRED) throw new Error(`TALLY_REQUIRE_PODMAN=1 but containers cannot run here: ${unavailable}`);
    project.provide("containers", { skipped: unavailable });
    return;
  }
  const engine = "podman";
  const log = (line: string) => console.log(`[containers] ${line}`);
  const bases = ensureLocalBase(engine, log);
  const tally = `localhost/${randomName("tally-test")}:latest`;
  let t = Date.now();
  buildImage(engine, tally, bases, ["--quiet"]);
  log(`built ${tally} in ${((Date.now() - t) / 1000).toFixed(1)} s`);

  const key = createHash("sha256")
    .update(readFileSync(path.join(POSTGRES_DIR, "Containerfile")))
    .update(readFileSync(path.join(POSTGRES_DIR, "entrypoint.sh")))
    .update(bases.RUN_IMAGE)
    .digest("hex")
    .slice(0, 12);
  const postgres = `localhost/tally-test-postgres:${key}`;
  if (!imageExists(engine, postgres)) {
    t = Date.now();
    await must(engine, [
      "build",
      "--quiet",
      ...(isPodman(engine) ? ["--format", "docker"] : []),
      "--build-arg",
      `BASE_IMAGE=${bases.RUN_IMAGE}`,
      "-t",
      postgres,
      POSTGRES_DIR,
    ]);
    log(`built ${postgres} (Debian's postgresql) in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  project.provide("containers", { engine, tally, postgres, bases } satisfies ContainerImages);
  return async () => {
    await sh(engine, ["rmi", "--force", tally]);
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    containers: ContainerImages | { skipped: string };
  }
}
