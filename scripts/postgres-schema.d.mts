export const SQLITE_SCHEMA: string;
export const POSTGRES_SCHEMA: string;
export function postgresSchemaFrom(sqlite: string): string;
