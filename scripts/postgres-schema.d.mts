export const PRISMA_DIR: string;
export const SQLITE_SCHEMA: string;
export const POSTGRES_SCHEMA: string;
export function postgresSchemaFrom(sqlite: string): string;
export function writePostgresSchema(prismaDir?: string): boolean;
