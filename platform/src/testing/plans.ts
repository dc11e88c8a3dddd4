/** Knex's pool of connections, as a test takes one of its node-postgres clients (`knex.client`). */
export interface KnexPool {
  acquireConnection(): Promise<NoticedConnection>;
  releaseConnection(connection: NoticedConnection): Promise<void>;
}

/** A node-postgres client of the pool, as a test runs statements on it and reads its notices. */
export interface NoticedConnection {
  query(sql: string): Promise<unknown>;
  on(event: 'notice', listener: (notice: { message?: string }) => void): void;
  off(event: 'notice', listener: (notice: { message?: string }) => void): void;
}

/**
 * Has `connection` report the plan of every statement it runs from now on, nested ones too, into
 * `plans` ('Query Text: …' and the plan; auto_explain, which ships with PostgreSQL, at notice level).
 * Answers how to stop: the listener goes and the session's settings are reset.
 */
export async function explainInto(connection: NoticedConnection, plans: string[]): Promise<() => Promise<void>> {
  const listener = (notice: { message?: string }) => plans.push(notice.message ?? '');
  connection.on('notice', listener);
  await connection.query(
    "LOAD 'auto_explain'; SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on; SET auto_explain.log_level = 'notice'",
  );
  return async () => {
    connection.off('notice', listener);
    await connection.query('RESET ALL');
  };
}
