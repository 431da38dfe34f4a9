// The body store chaos mode's verdict (scripts/chaos/bodies.ts): it passes only when bodies were
// stored, none is missing or corrupt, and a sweep past the grace left nothing unnamed or temporary.
import { describe, expect, it } from "vitest";
import { bodiesOk, type BodiesLedger } from "./bodies";

const good: Omit<BodiesLedger, "ok"> = {
  rowsNamingBodies: 120,
  objectsNamed: 200,
  missing: 0,
  corrupt: 0,
  rowsWithoutBody: 0,
  killsDuringStores: 2,
  kills: 2,
  sweeps: 40,
  sweeperKills: 12,
  sweptDuringRun: 3,
  backend: "file",
  unreferencedLeft: 0,
  temporariesLeft: 0,
};

describe("bodiesOk", () => {
  it("passes a run whose every named body is there and nothing unnamed is left", () => {
    expect(bodiesOk(good)).toBe(true);
  });
  it("passes an S3 run whose server cannot list unfinished uploads (null), not one that has some left", () => {
    expect(bodiesOk({ ...good, backend: "s3", temporariesLeft: null })).toBe(true);
    expect(bodiesOk({ ...good, backend: "s3", temporariesLeft: 2 })).toBe(false);
  });
  it("fails on a missing or corrupt body, a row naming nothing, or leftovers after the final sweep", () => {
    for (const bad of [
      { missing: 1 },
      { corrupt: 1 },
      { rowsWithoutBody: 1 },
      { unreferencedLeft: 1 },
      { temporariesLeft: 1 },
      { rowsNamingBodies: 0 },
    ])
      expect(bodiesOk({ ...good, ...bad }), JSON.stringify(bad)).toBe(false);
  });
});
