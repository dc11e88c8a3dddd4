import { describe, expect, it } from 'vitest';
import { deleteExpired } from './adapter.ts';
import { deleteExpiredBrokerStates } from './broker.ts';
import { deleteOldMail } from '@forum/platform';
import { deleteExpiredLimits } from './throttle.ts';
import { useAccountsRealm } from './flows-test-support.ts';
import { type Harness } from './test-support.ts';

let h: Harness;
useAccountsRealm((started) => (h = started));

describe('housekeeping', () => {
  it('drops expired rate-limit rows, broker states and old development mail', async () => {
    await h.db.raw(`INSERT INTO identity.rate_limits (key, points, expire) VALUES ('test:old', 3, ?), ('test:live', 1, ?)`, [
      Date.now() - 2 * 3_600_000,
      Date.now() + 60_000,
    ]);
    await h.db.raw(`INSERT INTO identity.mailbox (recipient, subject, body, created_at) VALUES ('old@forum.local', 'old', 'old', now() - interval '2 days')`);
    await h.db.raw(
      `INSERT INTO identity.broker_states (state_hash, provider, interaction_uid, code_verifier, nonce, expires_at) VALUES ('x', 'google', 'u', 'v', 'n', now() - interval '1 minute')`,
    );
    await deleteExpired(h.db);
    await deleteExpiredLimits(h.db);
    await deleteExpiredBrokerStates(h.db);
    await deleteOldMail(h.db);
    const keys = await h.db.withSchema('identity').from<{ key: string }>('rate_limits').whereLike('key', 'test:%').pluck('key');
    expect(keys).toEqual(['test:live']);
    expect(await h.db.withSchema('identity').from('mailbox').where({ recipient: 'old@forum.local' }).first()).toBeUndefined();
    expect(await h.db.withSchema('identity').from('broker_states').where({ state_hash: 'x' }).first()).toBeUndefined();
  });
});
