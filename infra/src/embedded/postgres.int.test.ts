import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedConfig } from './config.ts';
import { sharedBuffersFor, startEmbeddedPostgres } from '@forum/platform/embedded-postgres';

const GB = 1024 ** 3;

describe('the embedded PostgreSQL page cache', () => {
  it('is a quarter of the machine memory, at least 512MB and at most 8GB', () => {
    expect(sharedBuffersFor(1 * GB)).toBe('512MB');
    expect(sharedBuffersFor(4 * GB)).toBe('1024MB');
    expect(sharedBuffersFor(24 * GB)).toBe('6144MB');
    expect(sharedBuffersFor(23.55 * GB)).toBe('6016MB');
    expect(sharedBuffersFor(128 * GB)).toBe('8192MB');
  });

  it('PG_SHARED_BUFFERS takes a size PostgreSQL reads, and nothing else', () => {
    expect(EmbeddedConfig.parse({ PG_SHARED_BUFFERS: '2GB' }).PG_SHARED_BUFFERS).toBe('2GB');
    expect(EmbeddedConfig.parse({}).PG_SHARED_BUFFERS).toBeUndefined();
    for (const bad of ['2 GB', '2gb', 'lots', '-1MB']) expect(EmbeddedConfig.safeParse({ PG_SHARED_BUFFERS: bad }).success).toBe(false);
  });

  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('is what the cluster runs with', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-pg-'));
    dirs.push(dataDir);
    const postgres = await startEmbeddedPostgres({ dataDir, database: 'forum', sharedBuffers: '160MB' });
    const client = new pg.Client({ connectionString: postgres.url });
    try {
      await client.connect();
      expect((await client.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]!.shared_buffers).toBe('160MB');
    } finally {
      await client.end();
      await postgres.stop();
    }
  }, 120_000);
});
