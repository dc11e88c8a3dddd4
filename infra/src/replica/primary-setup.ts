import { readFile, writeFile } from 'node:fs/promises';
import pg from 'pg';

export interface ReplicationAccess {
  /** The role the standby streams the WAL as: LOGIN and REPLICATION, nothing else. */
  readonly role: string;
  readonly password: string;
  /** The physical replication slot that keeps the standby's WAL on the primary until it has received it. */
  readonly slot: string;
  /** The address the standby connects from (pg_hba.conf's host line), e.g. 127.0.0.1/32. */
  readonly from: string;
}

/**
 * Makes a running primary ready to feed a standby: checks that it writes WAL a standby can replay
 * (wal_level replica or logical) and has WAL senders, creates (or sets the password of) the
 * replication role, admits it for replication in pg_hba.conf (a line of its own, first, so that
 * no broader line decides for it) and creates the slot, reserving WAL from now on: a base backup
 * taken after this finds every WAL file it needs still on the primary.
 */
export async function prepareForReplication(superuserUrl: string, access: ReplicationAccess): Promise<void> {
  const session = new pg.Client({ connectionString: superuserUrl, application_name: 'forum-replica-setup' });
  await session.connect();
  try {
    const setting = async (name: string) =>
      (await session.query<{ setting: string }>('SELECT setting FROM pg_settings WHERE name = $1', [name])).rows[0]!.setting;
    const walLevel = await setting('wal_level');
    if (walLevel === 'minimal')
      throw new Error('The primary has wal_level=minimal: a standby needs wal_level=replica (the default), set in postgresql.conf and restarted');
    if (Number(await setting('max_wal_senders')) < 1) throw new Error('The primary has max_wal_senders=0: a standby needs at least one WAL sender');

    const role = pg.escapeIdentifier(access.role);
    const password = pg.escapeLiteral(access.password);
    const exists = (await session.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [access.role])).rowCount! > 0;
    await session.query(`${exists ? 'ALTER' : 'CREATE'} ROLE ${role} WITH LOGIN REPLICATION PASSWORD ${password}`);

    const hbaFile = await setting('hba_file');
    const line = `host replication ${access.role} ${access.from} scram-sha-256`;
    const rules = await readFile(hbaFile, 'utf8');
    const reload = async () => {
      const { rows } = await session.query<{ reloaded: boolean }>('SELECT pg_reload_conf() AS reloaded');
      if (!rows[0]!.reloaded) throw new Error('The primary did not reload its configuration after pg_hba.conf changed');
    };
    if (!rules.split('\n').includes(line)) {
      await writeFile(hbaFile, `# the forum's standby streams the WAL as this role (infra/src/replica)\n${line}\n${rules}`);
      await reload();
    }
    const errors = await session.query<{ line_number: number; error: string }>('SELECT line_number, error FROM pg_hba_file_rules WHERE error IS NOT NULL');
    if (errors.rowCount! > 0) {
      // the file goes back as it was: PostgreSQL keeps its old rules on a reload, but would not start again on these
      await writeFile(hbaFile, rules);
      await reload();
      throw new Error(`pg_hba.conf has errors: ${errors.rows.map((r) => `line ${r.line_number}: ${r.error}`).join('; ')}`);
    }

    await session.query(`SELECT pg_create_physical_replication_slot($1, true) WHERE NOT EXISTS (SELECT FROM pg_replication_slots WHERE slot_name = $1)`, [
      access.slot,
    ]);
  } finally {
    await session.end();
  }
}
