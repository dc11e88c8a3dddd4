import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, stopLeftoverPostmaster } from '@forum/platform/embedded-postgres';
import { exitOf, isAlive, npmStartCommand, postmasterPid, startForumProcess } from '../testing/forum-process.ts';

let dataDir: string;
let port: number;

/** The forum's process on this file's port, with its data in `dataDir` unless `env` says otherwise. */
const start = (env: Record<string, string> = {}, { asNpmStart = false } = {}) => startForumProcess({ port, dataDir, env, asNpmStart });

async function login(): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/realms/forum/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: 'forum-cli', username: 'bob@forum.local', password: 'Forum#2026' }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-lifecycle-'));
  port = await freePort();
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('npm start (infra/src/embedded/main.ts)', () => {
  it('keeps data across restarts, recovers a PostgreSQL left running by a killed run, and stops cleanly on SIGTERM', { timeout: 360_000 }, async () => {
    // First start: a new cluster in DATA_DIR, demo data, the banner with URL and accounts
    const first = start();
    const banner = await first.ready;
    expect(banner).toContain(`Forum is running at http://localhost:${port}`);
    expect(banner).toContain('alice@forum.local');
    const token = await login();
    const created = await fetch(`http://127.0.0.1:${port}/api/posts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Survives restarts', description: 'Kept in .data', tags: [] }),
    });
    expect(created.status).toBe(201);

    // kill -9: node dies, its PostgreSQL keeps running with the data directory locked
    const pid = await postmasterPid(dataDir);
    expect(pid).not.toBeNull();
    first.child.kill('SIGKILL');
    await exitOf(first.child);
    expect(isAlive(pid!)).toBe(true);

    // Second start: the leftover server is detected and stopped, not a crash
    const second = start();
    await second.ready;
    expect(isAlive(pid!)).toBe(false);
    const page = (await (await fetch(`http://127.0.0.1:${port}/api/posts`)).json()) as { posts: { title: string }[]; totalCount: number };
    expect(page.posts.map((p) => p.title)).toContain('Survives restarts');
    expect(page.totalCount).toBe(7); // six demo posts, seeded once, and ours
    // the sessions and keys of the realm survived too: the token of the first run still works
    const again = await fetch(`http://127.0.0.1:${port}/api/posts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Same token', description: 'Keys are kept', tags: [] }),
    });
    expect(again.status).toBe(201);

    // SIGTERM: everything stops, PostgreSQL included
    const secondPid = await postmasterPid(dataDir);
    second.child.kill('SIGTERM');
    expect(await exitOf(second.child)).toEqual({ code: 0, signal: null });
    expect(isAlive(secondPid!)).toBe(false);
  });
});

describe('#28.17 starting the forum', () => {
  it('#28.17 in pretty mode prints a few readable lines and then the banner, with no raw JSON before it', { timeout: 180_000 }, async () => {
    const firstStartDir = await mkdtemp(path.join(os.tmpdir(), 'forum-start-output-'));
    try {
      const forum = start({ DATA_DIR: firstStartDir, LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' });
      const output = await forum.ready;
      // stopped as soon as it said it runs: the banner comes once SIGTERM reaches the forum's own handler
      forum.child.kill('SIGTERM');
      expect(await exitOf(forum.child)).toEqual({ code: 0, signal: null });
      const beforeBanner = output
        .slice(0, output.indexOf('Forum is running at'))
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      expect(beforeBanner.filter((line) => line.startsWith('{'))).toEqual([]);
      // the realm's start and the first start's demo data, as a person reads them
      expect(beforeBanner).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d INFO\s+forum\/identity-realm: identity realm ready/));
      expect(beforeBanner).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d INFO\s+forum: demo data written/));
      expect(beforeBanner.length).toBeLessThanOrEqual(5);
    } finally {
      await rm(firstStartDir, { recursive: true, force: true });
    }
  });
});

describe('#39 edge 25 npm start in a terminal', () => {
  it(
    '#39 edge 25 prints no runtime warning and a banner in plain words with the mailbox; Ctrl-C stops everything and prints only that it stops',
    { timeout: 240_000 },
    async () => {
      // node runs main.ts itself: under tsx's command line, which ends its script 60 ms after a Ctrl-C
      // unless the script has said it took the signal, a slow machine lost the forum mid-stop
      expect(npmStartCommand.slice(0, 3)).toEqual(['node', '--import', 'tsx']);
      const dir = await mkdtemp(path.join(os.tmpdir(), 'forum-terminal-'));
      const forum = start({ DATA_DIR: dir, LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' }, { asNpmStart: true });
      try {
        const output = await forum.ready;
        expect(output).not.toMatch(/Unsupported runtime|oidc-provider/);
        const banner = output
          .slice(output.indexOf('Forum is running at'))
          .split('\n')
          .map((line) => line.trim());
        // where the mails for confirming an address and resetting a password are read, on a line of its own
        expect(banner).toContainEqual(expect.stringMatching(new RegExp(`^Mailbox:\\s+http://localhost:${port}/realms/forum/mailbox$`)));
        // plain words: no "Identity (issuer)"
        expect(banner).toContainEqual(expect.stringMatching(new RegExp(`^Sign-in service:\\s+http://localhost:${port}/realms/forum$`)));
        expect(banner.join('\n')).not.toMatch(/issuer|identity/i);
        const postgres = await postmasterPid(dir);
        expect(postgres).not.toBeNull();

        // Ctrl-C: the terminal sends SIGINT to every process of its job, PostgreSQL included
        process.kill(-forum.child.pid!, 'SIGINT');
        expect(await exitOf(forum.child)).toEqual({ code: 0, signal: null });
        expect(isAlive(postgres!)).toBe(false);
        const afterCtrlC = forum.output().slice(output.length);
        const lines = afterCtrlC.split('\n').filter((line) => line.trim());
        // what it says while it stops, and nothing else: no warning, no error, no stack
        expect(lines.length).toBeGreaterThan(0);
        for (const line of lines) expect(line).toMatch(/^\d\d:\d\d:\d\d INFO /);
        expect(lines.at(-1)).toMatch(/INFO\s+forum: stopped/);
        expect(afterCtrlC.endsWith('\n')).toBe(true);
      } finally {
        // a failed run leaves nothing behind: its processes, and its PostgreSQL whichever group it runs in
        if (forum.child.exitCode === null && forum.child.signalCode === null) process.kill(-forum.child.pid!, 'SIGKILL');
        await stopLeftoverPostmaster(path.join(dir, 'pg'), () => {});
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
