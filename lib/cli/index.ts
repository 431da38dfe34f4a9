import "server-only";
// lib/cli's surface: what other folders import from it (its files import each other directly).
export { type CliContext, followRun, osUser, parseCliArgs, printOutcome, runCli, UsageError } from "./cli";
