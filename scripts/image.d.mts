// Types for scripts/image.mjs (used by test/containers and scripts/test.mjs).
export const NODE_VERSION: string;
export const NPM_VERSION: string;
export const DEBIAN_SUITE: string;
export function containerEngine(env?: Record<string, string | undefined>): { engine: string | null; reason: string };
export function isPodman(engine: string): boolean;
export function imageExists(engine: string, tag: string): boolean;
export function debianMirror(): string;
export function localBaseTag(mirror?: string): string;
export function ensureLocalBase(
  engine: string,
  log?: (line: string) => void,
): { NODE_IMAGE: string; RUN_IMAGE: string };
export function buildImage(engine: string, tag: string, bases?: Record<string, string>, extraArgs?: string[]): void;
