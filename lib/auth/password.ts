import "server-only";
import { hash, verify } from "@node-rs/argon2";

// Passwords are stored as Argon2id PHC strings ($argon2id$v=19$m=19456,t=2,p=1$…: OWASP's minimum).

// Algorithm.Argon2id is an ambient const enum (not importable under isolatedModules); its value is 2.
const ARGON2ID = 2;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 });
}

export async function passwordMatches(stored: string, presented: string): Promise<boolean> {
  try {
    return await verify(stored, presented);
  } catch {
    return false;
  }
}

// A hash to verify against when no account matches, so a missing account costs the same time.
let dummy: Promise<string> | undefined;
export async function burnVerifyTime(presented: string): Promise<void> {
  dummy ??= hashPassword("no account has this password");
  await passwordMatches(await dummy, presented);
}
