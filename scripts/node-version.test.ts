// The Node check at start-up (scripts/prepare.ts): supported lines pass silently, Node 20 (past its end
// of life) warns and goes on, anything too old to run stops; package.json's "engines" says the same.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nodeVersionProblem, SUPPORTED_RANGE } from "./node-version.mjs";

describe("nodeVersionProblem", () => {
  it("passes the supported lines", () => {
    for (const v of ["v22.14.0", "v22.21.1", "v24.0.0", "v24.22.3"]) expect(nodeVersionProblem(v)).toBeNull();
  });

  it("warns and goes on for Node 20, an unsupported 22, 23 and newer lines", () => {
    expect(nodeVersionProblem("v20.20.2")).toEqual({
      fatal: false,
      message: "Node v20.20.2 is past its end of life (April 2026): Tally supports Node 22 (22.14 or later) and 24.",
    });
    for (const v of ["v20.19.0", "v22.13.1", "v23.11.0", "v26.1.0"]) expect(nodeVersionProblem(v)?.fatal).toBe(false);
  });

  it("stops on a Node too old to run Tally, naming the versions it needs", () => {
    for (const v of ["v20.18.3", "v18.20.8", "v16.0.0"]) {
      const problem = nodeVersionProblem(v);
      expect(problem?.fatal).toBe(true);
      expect(problem?.message).toContain("Node 22 (22.14 or later) and 24");
    }
  });

  it("says what package.json's engines field says", () => {
    const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../package.json"), "utf8"));
    expect(pkg.engines.node).toBe(SUPPORTED_RANGE);
  });
});
