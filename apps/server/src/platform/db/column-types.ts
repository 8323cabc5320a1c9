import type { ColumnType } from 'kysely';

/**
 * Booleans come back as 0/1 from SQLite and MySQL and as true/false from PostgreSQL; repositories
 * normalise them with `toBoolean` before anything leaves the data layer.
 */
export type DbBoolean = ColumnType<boolean | number, boolean, boolean>;
