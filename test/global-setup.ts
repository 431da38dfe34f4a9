// Applies the migrations once into a template database; each test copies it (fast and faithful).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

export default function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), "tally-template-"));
  const file = path.join(dir, "template.db");
  execFileSync("npx", ["prisma", "migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: `file:${file}` },
    stdio: "pipe",
  });
  project.provide("templateDb", file);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDb: string;
  }
}
