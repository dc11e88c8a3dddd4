/**
 * The scale bench's members: real users of the synthetic log, so that their reads hit their own
 * rows (their posts, their notifications) and the forum knows them already (no first-request
 * registration). The log holds no realm accounts; each chosen user gets one under their own id
 * (a token's subject is the forum's user id) with the demo accounts' password, its hash copied
 * from the seeded admin's account.
 */
import type { Knex } from 'knex';
import type { BenchServer } from './server.ts';

export interface SyntheticMembers {
  readonly emails: readonly string[];
  /** Each member's access token from `server`'s realm, in `emails`' order, signed in afresh (an access token lasts 5 minutes). */
  tokens(server: BenchServer): Promise<string[]>;
}

/**
 * `count` users of the log with the plain user role, not disabled or erased, with posts and
 * notifications, spread over the users (ordered by id, which is random); fewer if the log has fewer.
 * On a kept data folder the accounts an earlier run made are reused.
 */
export async function syntheticMembers(db: Knex, count: number): Promise<SyntheticMembers> {
  const chosen = (
    await db.raw<{ rows: { id: string; email: string; name: string }[] }>(
      `SELECT u.id, u.email, u.name FROM read.users u
        WHERE u.role = 'user'
          AND NOT EXISTS (SELECT 1 FROM read.account_denials d WHERE d.user_id = u.id)
          AND EXISTS (SELECT 1 FROM read.notifications n WHERE n.user_id = u.id)
          AND EXISTS (SELECT 1 FROM read.posts p WHERE p.author_email = u.email)
        ORDER BY u.id LIMIT ?`,
      [count],
    )
  ).rows;
  if (chosen.length === 0) throw new Error('the synthetic log has no user with posts and notifications to sign in as');
  await db.raw(
    `INSERT INTO identity.accounts (id, email, name, password_hash, email_verified)
     SELECT m.id::uuid, lower(m.email), m.name, a.password_hash, true
       FROM jsonb_to_recordset(?::jsonb) AS m(id text, email text, name text), identity.accounts a
      WHERE a.email = 'admin@forum.local'
     ON CONFLICT DO NOTHING`,
    [JSON.stringify(chosen)],
  );
  const emails = chosen.map((member) => member.email);
  return { emails, tokens: (server) => Promise.all(emails.map((email) => server.token(email))) };
}
