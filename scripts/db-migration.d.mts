export const NAME_PATTERN: RegExp;
export const MAX_NAME_LENGTH: number;
export function nameProblem(name: string | null | undefined): string | null;
export function migrationTimestamp(existing: string[], now?: Date): string;
export function migrationFolders(dir: string): string[];
export function parseArgs(argv: string[]): {
  name: string | null;
  prismaDir: string;
  generate: boolean;
  help?: boolean;
};
