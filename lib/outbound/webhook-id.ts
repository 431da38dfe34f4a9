import { createHash } from "node:crypto";

// The webhook-id of an event: derived from the job and its outcome, so every attempt, replay and
// destination (and the chaos run's ledger) computes the same one. Plain module: no server code.

export function webhookId(jobId: string, outcome: string): string {
  return `msg_${createHash("sha256").update(`${jobId}\u0000${outcome}`).digest("base64url").slice(0, 32)}`;
}
