import { type AnyDb, createTableWithId, finishTable, type MigrationContext } from './helpers.js';

/**
 * Passkeys (WebAuthn credentials), with One Hub's table and column names (reference §3.1). One Hub
 * stores the credential id and public key as raw bytes; here they are base64url text, which every
 * dialect indexes and compares the same way (a unique index on a MySQL blob would need a prefix).
 * 255 bytes of id become at most 340 characters of base64url.
 */
export async function up(db: AnyDb, context: MigrationContext): Promise<void> {
  await finishTable(
    createTableWithId(db, context, 'webauthn_credentials')
      .addColumn('user_id', 'integer', (column) => column.notNull())
      .addColumn('credential_id', 'varchar(344)', (column) => column.notNull().unique())
      .addColumn('public_key', 'text', (column) => column.notNull())
      .addColumn('attestation_type', 'varchar(32)', (column) => column.notNull().defaultTo(''))
      .addColumn('alias', 'varchar(255)', (column) => column.notNull().defaultTo(''))
      .addColumn('backup_eligible', 'boolean', (column) => column.notNull().defaultTo(false))
      .addColumn('backup_state', 'boolean', (column) => column.notNull().defaultTo(false))
      .addColumn('aaguid', 'varchar(64)', (column) => column.notNull().defaultTo(''))
      .addColumn('sign_count', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('clone_warning', 'boolean', (column) => column.notNull().defaultTo(false))
      .addColumn('attachment', 'varchar(32)', (column) => column.notNull().defaultTo(''))
      .addColumn('created_time', 'bigint', (column) => column.notNull()),
    context,
  ).execute();
  await db.schema
    .createIndex('idx_webauthn_credentials_user_id')
    .on('webauthn_credentials')
    .column('user_id')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('webauthn_credentials').ifExists().execute();
}
