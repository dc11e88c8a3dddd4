import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { waitFor } from '@forum/platform/testing';
import { benchWriters, type BenchServer } from './server.ts';

/**
 * The benches' writers: Gold members made through the realm's admin API. A bench run again on
 * the data an earlier run kept (`SCALE_DATA_DIR`) finds them there and signs them in.
 */
let forum: TestForum;
let server: BenchServer;

beforeAll(async () => {
  forum = await startTestForum();
  server = {
    base: forum.url,
    databaseUrl: forum.databaseUrl,
    pid: process.pid,
    token: (email, password) => forum.tokenFor(email, password),
    stop: async () => {},
  };
}, 60_000);
afterAll(async () => {
  await forum?.stop();
});

describe('bench writers', () => {
  it('are made once, Gold members, and a second run on the same data signs the same members in', async () => {
    for (let run = 0; run < 2; run++) {
      const writers = await benchWriters(server, 2, 'kept-writer');
      const tokens = await writers.tokens();
      expect(tokens).toHaveLength(2);
      for (const token of tokens) {
        // the read side shows the membership once it has applied the purchase
        const me = await waitFor(
          async () => (await forum.api('/api/me', { token })).json() as Promise<{ isMember?: boolean }>,
          (m) => m.isMember === true,
        );
        expect(me).toMatchObject({ isMember: true });
      }
    }
  });
});
