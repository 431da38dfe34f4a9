import type { TallyConfig } from "../config";
import type { RuleName } from "./contracts";

// What an alert rule is (rules.ts holds them): it reads the shared state at `now` and says whether its
// condition holds.

export type Finding = { firing: boolean; summary: string; details: Record<string, unknown> };
export type Rule = {
  name: RuleName;
  description: string;
  /** The dashboard page an alert links to. */
  page: string;
  thresholds(c: TallyConfig): Array<{ setting: string; value: string }>;
  check(c: TallyConfig, now: Date): Promise<Finding>;
};
