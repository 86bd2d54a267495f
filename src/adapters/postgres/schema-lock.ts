// Every store that creates its PostgreSQL schema (control, stories) takes this
// one lock first, in the transaction that creates it: two sessions running
// CREATE SCHEMA IF NOT EXISTS for the same name at once collide in the catalog
// (a unique violation), whichever stores, processes or replicas they are.

/** SQL taking the schema's creation lock until the end of the transaction. `schema` is a validated name. */
export function schemaLockSql(schema: string): string {
  return `SELECT pg_advisory_xact_lock(hashtext('${schema}.schema'))`;
}
