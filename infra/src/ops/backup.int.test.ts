import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Me } from '@forum/contracts';
import { anyNumber, anyString, createTestDatabase, waitFor } from '@forum/platform/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runForumctl } from './forumctl.ts';
import { expectStatus } from '../testing/expect-status.ts';
import { startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';

/**
 * The backup drill (issue #45.7): a forum under writes is backed up, one of its members is erased
 * after the backup, and the backup is restored into a fresh database with the erasure list: the
 * restored log is the source's up to the backup's cut, `verify` passes, the erased member's key
 * is not brought back, and a member who existed at backup time signs in on the restored forum.
 */

let forum: TestForum;
let dir: string;
/** The erasure list the forum keeps outside its database (ERASURE_LIST), as an operator would keep it apart. */
let keptList: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'backup-'));
  keptList = path.join(dir, 'kept-erasures.ndjson');
  forum = await startTestForum({ ERASURE_LIST: keptList });
});
afterAll(async () => {
  await forum?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function ctl(args: string[], url = forum.databaseUrl) {
  let out = '';
  let err = '';
  const code = await runForumctl(args, url, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** The log as stored (sealed data as it is), in position order: what a restore must give back byte for byte. */
const LOG_SQL = (where: string) =>
  `SELECT global_position::text AS position, stream_id, stream_version, type, data::text AS data, metadata::text AS metadata, recorded_at
   FROM eventstore.events WHERE ${where} ORDER BY global_position`;

interface Manifest {
  format: string;
  version: number;
  position: string;
  cut: string;
  counts: Record<string, number>;
  files: Record<string, { sha256: string; bytes: number }>;
}

describe('forumctl backup and restore', () => {
  let members: NewUser[];
  let backupDir: string;
  let manifest: Manifest;
  let erased: NewUser;
  let erasureList: string;

  beforeAll(async () => {
    members = [];
    for (let i = 0; i < 4; i++) {
      const member = await forum.newUser(`Drill member ${i}`);
      await forum.register(member.token);
      members.push(member);
    }
    const post = await expectStatus<{ id: string }>(
      forum.api('/api/posts', { method: 'POST', token: members[0]!.token, json: { title: 'Drill', description: 'first', tags: [] } }),
      201,
    );
    // members write continuously (posts, comments, votes) while the backup is taken
    let writing = true;
    let writes = 0;
    const failures: string[] = [];
    // a free member may have 5 posts: each writes 3 (one is there already), then comments and votes on
    // and on (a vote turned from up to down and back is an event each time)
    const posts: { id: string; by: number }[] = [{ id: post.id, by: 0 }];
    const writer = async (member: NewUser, n: number) => {
      for (let i = 0; writing; i++) {
        const calls: Promise<Response>[] = [];
        if (i < 3) {
          const created = await forum.api('/api/posts', {
            method: 'POST',
            token: member.token,
            json: { title: `Post ${n}.${i}`, description: `by ${member.name}`, tags: ['React'] },
          });
          if (created.ok) posts.push({ id: ((await created.json()) as { id: string }).id, by: n });
          calls.push(Promise.resolve(created));
        }
        calls.push(
          forum.api('/api/comments', { method: 'POST', token: member.token, json: { postId: posts[i % posts.length]!.id, text: `Comment ${n}.${i}` } }),
        );
        const others = posts.filter((p) => p.by !== n);
        const vote = { vote: i % 2 ? 'down' : 'up' };
        if (others.length > 0) calls.push(forum.api(`/api/posts/${others[i % others.length]!.id}/vote`, { method: 'PUT', token: member.token, json: vote }));
        for (const answer of await Promise.all(calls)) {
          if (answer.ok) writes++;
          else failures.push(`${answer.url}: ${answer.status} ${await answer.text().catch(() => '')}`);
        }
      }
    };
    const writers = members.map((member, n) => writer(member, n));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    backupDir = path.join(dir, 'backup');
    const writesBefore = writes;
    const started = performance.now();
    const backup = await ctl(['backup', backupDir]);
    const writesDuring = writes - writesBefore;
    const seconds = (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 500));
    writing = false;
    await Promise.all(writers);
    expect(backup.code, backup.err).toBe(0);
    expect(failures).toEqual([]);
    manifest = JSON.parse(await readFile(path.join(backupDir, 'manifest.json'), 'utf8')) as Manifest;
    let bytes = 0;
    for (const file of await readdir(backupDir)) bytes += (await stat(path.join(backupDir, file))).size;
    console.log(
      `backup under writes: ${manifest.counts.events} events, ${manifest.counts.keys} keys, ${manifest.counts.accounts} accounts, ` +
        `${(bytes / 1024).toFixed(0)} KiB in ${seconds.toFixed(2)} s; ${members.length} members' writes acknowledged: ${writesBefore} before it, ${writesDuring} while it ran, ${writes} in all`,
    );

    // a member who existed at backup time is erased after it, through the real command
    erased = members[1]!;
    await expectStatus(forum.api('/api/me', { method: 'DELETE', token: erased.token, json: { content: 'keep' } }));
    // the forum appended the erasure to the list it keeps outside the database as it committed;
    // `forumctl erasures` gives the same list from the database
    erasureList = keptList;
    const kept = await waitFor(
      async () =>
        (await readFile(keptList, 'utf8').catch(() => ''))
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { subject: string }),
      (entries) => entries.some((entry) => entry.subject === erased.id),
    );
    const fromDatabase = path.join(dir, 'erasures.ndjson');
    const listed = await ctl(['erasures', '--out', fromDatabase]);
    expect(listed.code, listed.err).toBe(0);
    expect(await readFile(fromDatabase, 'utf8')).toBe(await readFile(keptList, 'utf8'));
    expect(kept.map((entry) => entry.subject)).toContain(erased.id);
  });

  it('writes a manifest with the position, the format, counts and checksums, and the log in the export format', async () => {
    expect(manifest).toMatchObject({ format: 'forum-backup', version: 1 });
    expect(Number(manifest.position)).toBeGreaterThan(0);
    expect(Object.keys(manifest.files).sort()).toEqual([
      'accounts.ndjson',
      'erasures.ndjson',
      'events.ndjson',
      'federated-identities.ndjson',
      'idempotency-keys.ndjson',
      'keys.ndjson',
    ]);
    const lines = (await readFile(path.join(backupDir, 'events.ndjson'), 'utf8')).trim().split('\n');
    expect(lines.length).toBe(manifest.counts.events);
    expect(JSON.parse(lines[0]!)).toMatchObject({ position: anyNumber, streamId: anyString, type: anyString });
    // a member's personal data is in the backup sealed, as the log stores it, never in plain text
    const registered = lines.map((line) => JSON.parse(line) as { type: string; data: unknown }).find((e) => e.type === 'UserRegistered');
    expect(JSON.stringify(registered)).not.toContain('@forum.test');
  });

  it('refuses a target that is not empty, and a damaged backup, with a clear message', async () => {
    const notEmpty = await ctl(['restore', backupDir, '--erasures', erasureList]);
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.err).toMatch(/not empty/);

    const damaged = path.join(dir, 'damaged');
    await mkdir(damaged);
    for (const file of await readdir(backupDir)) await copyFile(path.join(backupDir, file), path.join(damaged, file));
    const events = await readFile(path.join(damaged, 'events.ndjson'), 'utf8');
    await writeFile(path.join(damaged, 'events.ndjson'), events.replace('"streamVersion":1', '"streamVersion":2'));
    const target = await createTestDatabase('restore');
    try {
      const refused = await ctl(['restore', damaged, '--erasures', erasureList], target.url);
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(/events\.ndjson does not match its checksum/);
      // and nothing was written
      expect(await query(target.url, `SELECT 1 FROM pg_namespace WHERE nspname = 'eventstore'`)).toEqual([]);
      // a restore without an erasure list is refused: it could bring back a key destroyed since
      const unlisted = await ctl(['restore', backupDir], target.url);
      expect(unlisted.code).toBe(2);
      expect(unlisted.err).toMatch(/--erasures/);
    } finally {
      await target.drop();
    }
  });

  it('restores into a fresh database: the log up to the cut, verify passes, no key of a member erased since, accounts sign in', async () => {
    const target = await createTestDatabase('restore');
    let restoredForum: TestForum | undefined;
    try {
      const started = performance.now();
      const restored = await ctl(['restore', backupDir, '--erasures', erasureList], target.url);
      const seconds = (performance.now() - started) / 1000;
      expect(restored.code, restored.err + restored.out).toBe(0);
      console.log(`restore of ${manifest.counts.events} events (read models rebuilt and verified): ${seconds.toFixed(2)} s`);

      // the source's log in its readers' order up to the backup's cut, every event as stored
      const source = await query(forum.databaseUrl, LOG_SQL(`transaction_id < $1::xid8 AND global_position <= $2`), [manifest.cut, manifest.position]);
      const copy = await query(target.url, LOG_SQL(`global_position <= $1`), [manifest.position]);
      expect(copy.length).toBe(manifest.counts.events);
      expect(copy).toEqual(source);
      // by position alone: the events of the source below the backup's position outside the cut (transactions still open then)
      const late = await query<{ n: number }>(
        forum.databaseUrl,
        `SELECT count(*)::int AS n FROM eventstore.events WHERE global_position <= $1 AND transaction_id >= $2::xid8`,
        [manifest.position, manifest.cut],
      );
      console.log(`source events at or below the backup's position ${manifest.position} outside its cut: ${late[0]!.n}`);

      // verify passes against the restored forum
      const verified = await ctl(['verify'], target.url);
      expect(verified.code, verified.err).toBe(0);

      // the erased member: no identity key in the restored key store, their registration reads as erased,
      // the erasure re-applied as an event after the backup's position, and their account gone
      // (they kept their content: only their identity key went, as the erasure itself destroyed)
      expect(await query(target.url, `SELECT kind FROM keystore.subject_keys WHERE subject = $1`, [erased.id])).toEqual([{ kind: 'content' }]);
      expect(await query(forum.databaseUrl, `SELECT kind FROM keystore.subject_keys WHERE subject = $1`, [erased.id])).toEqual([{ kind: 'content' }]);
      const [registration] = await query<{ data: { email: string; name: string } }>(
        target.url,
        `SELECT eventstore.unseal(data) AS data FROM eventstore.events WHERE stream_id = $1 AND type = 'UserRegistered'`,
        [`user-${erased.id}`],
      );
      expect(registration!.data.email).not.toBe(erased.email);
      expect(JSON.stringify(registration!.data)).not.toContain(erased.name);
      const reapplied = await query<{ position: string }>(
        target.url,
        `SELECT global_position::text AS position FROM eventstore.events WHERE stream_id = $1 AND type = 'AccountErased'`,
        [`user-${erased.id}`],
      );
      expect(reapplied.length).toBe(1);
      expect(Number(reapplied[0]!.position)).toBeGreaterThan(Number(manifest.position));
      expect(await query(target.url, `SELECT 1 FROM identity.accounts WHERE id = $1`, [erased.id])).toEqual([]);
      // their content key stays (they kept their content): their comments read as written
      const [comment] = await query<{ data: { text: string } }>(
        target.url,
        `SELECT eventstore.unseal(data) AS data FROM eventstore.events WHERE type = 'CommentAdded' AND metadata->>'actorId' = $1 ORDER BY global_position LIMIT 1`,
        [erased.id],
      );
      expect(comment!.data.text).toMatch(/^Comment 1\./);
      // the others' keys came back: their personal data reads as written
      const kept = members[0]!;
      const [keptRegistration] = await query<{ data: { email: string } }>(
        target.url,
        `SELECT eventstore.unseal(data) AS data FROM eventstore.events WHERE stream_id = $1 AND type = 'UserRegistered'`,
        [`user-${kept.id}`],
      );
      expect(keptRegistration!.data.email).toBe(kept.email);

      // a forum started on the restored database: a member who existed at backup time signs in
      restoredForum = await startTestForum({ DATABASE_URL: target.url });
      const token = await restoredForum.signIn(kept.email, kept.password);
      const me = await expectStatus<Me>(restoredForum.api('/api/me', { token }));
      expect(me.name).toBe(kept.name);
      await expect(restoredForum.signIn(erased.email, erased.password)).rejects.toThrow(/no token/);
    } finally {
      await restoredForum?.stop();
      await target.drop();
    }
  });

  it('a database restored to before an erasure (as a point-in-time recovery would) has the erasure list applied again: the key goes', async () => {
    const target = await createTestDatabase('pitr');
    try {
      // --no-erasures: the operator says no list applies; the erased member's key comes back, as from a physical backup
      const restored = await ctl(['restore', backupDir, '--no-erasures'], target.url);
      expect(restored.code, restored.err).toBe(0);
      const keys = () => query<{ kind: string }>(target.url, `SELECT kind FROM keystore.subject_keys WHERE subject = $1 ORDER BY kind`, [erased.id]);
      expect(await keys()).toEqual([{ kind: 'content' }, { kind: 'identity' }]);
      const applied = await ctl(['erasures', '--apply', erasureList], target.url);
      expect(applied.code, applied.err).toBe(0);
      expect(applied.out).toMatch(/erased .* again/);
      expect(await keys()).toEqual([{ kind: 'content' }]);
      const [registration] = await query<{ data: { email: string } }>(
        target.url,
        `SELECT eventstore.unseal(data) AS data FROM eventstore.events WHERE stream_id = $1 AND type = 'UserRegistered'`,
        [`user-${erased.id}`],
      );
      expect(registration!.data.email).not.toBe(erased.email);
      // applying it again changes nothing
      const again = await ctl(['erasures', '--apply', erasureList], target.url);
      expect(again.out).toMatch(/^0 of \d+ listed erasures were missing/m);
    } finally {
      await target.drop();
    }
  });
});
