import { randomBytes } from 'node:crypto';
import { LOGIN_BACKOFF } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationRequest, clientAt, CookieJar, formAction, formValue, mailLinkFor, startHarness, type Harness } from './test-support.ts';

/**
 * The sign-in back-off throttles the attacker, not the owner. Every client here sends from an
 * address of its own (127.0.0.x, all loopback); the realm counts the TCP peer (no proxy trusted).
 */
const PASSWORD = 'Forum#2026';
let h: Harness;
let nextHost = 2;
const client = () => clientAt(h, `127.0.0.${nextHost++}`);
const newAccount = async (name: string) => {
  const email = `${name}-${randomBytes(4).toString('hex')}@forum.local`;
  await h.realm.accounts.create({ email, password: PASSWORD, name });
  return email;
};
const wrong = (i: number) => `Wrong#${i}pass`;
const TOO_MANY = /^Too many failed attempts\. Try again in \d+ minutes?\.$/;
const refusal = async (res: Response) => ({
  status: res.status,
  retryAfter: Number(res.headers.get('retry-after')),
  message: ((await res.json()) as { error_description: string }).error_description,
});
/** The clock moves on past every wait (the waits are rows of the realm's database). */
const waitsPass = () => h.db.raw(`UPDATE identity.login_backoff SET blocked_until = now()`);

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

async function loginForm(email: string, password: string, from: ReturnType<typeof client>) {
  const jar = new CookieJar();
  const start = await h.get(authorizationRequest(h).url, jar);
  const pageUrl = start.headers.get('location')!;
  const html = await (await h.get(pageUrl, jar)).text();
  return from.postForm(formAction(html), { csrf: formValue(html, 'csrf'), email, password }, jar);
}

describe('the sign-in back-off', () => {
  it("holds the attacker's address after 5 wrong passwords, not the owner's correct password from another address (token endpoint and login form); across a restart too", async () => {
    const email = await newAccount('victim');
    const attacker = client();
    for (let i = 1; i <= LOGIN_BACKOFF.pair.free; i++) {
      const answer = await refusal(await attacker.passwordGrant(email, wrong(i)));
      expect(answer.status).toBe(400);
      expect(answer.message).toBe(i < LOGIN_BACKOFF.pair.free ? 'Invalid user credentials' : 'Too many failed attempts. Try again in 1 minute.');
    }
    const held = await refusal(await attacker.passwordGrant(email, PASSWORD));
    expect(held).toMatchObject({ status: 400, message: TOO_MANY });
    expect(held.retryAfter).toBeGreaterThan(50);
    const heldPage = await loginForm(email, PASSWORD, attacker);
    expect(heldPage.status).toBe(429);

    const owner = client();
    expect((await owner.passwordGrant(email, PASSWORD)).status).toBe(200);
    expect((await loginForm(email, PASSWORD, client())).status).toBe(303);
    // the form counts like the token endpoint: 5 wrong from one more address hold only that one
    const second = client();
    for (let i = 1; i <= LOGIN_BACKOFF.pair.free; i++) await loginForm(email, wrong(i), second);
    expect((await loginForm(email, PASSWORD, second)).status).toBe(429);
    expect((await loginForm(email, PASSWORD, owner)).status).toBe(303);

    await h.restart();
    expect((await attacker.passwordGrant(email, PASSWORD)).status).toBe(400);
    expect((await owner.passwordGrant(email, PASSWORD)).status).toBe(200);
  });

  it('lets one address that keeps guessing (waiting out each wait) hold only itself: the owner signs in from an address never used before', async () => {
    const email = await newAccount('hammered');
    const attacker = client();
    for (let i = 1; i <= 3 * LOGIN_BACKOFF.account.free; i++) {
      await waitsPass();
      await attacker.passwordGrant(email, wrong(i));
    }
    expect((await client().passwordGrant(email, PASSWORD)).status).toBe(200);
    expect((await loginForm(email, PASSWORD, client())).status).toBe(303);
    expect((await loginForm(email, PASSWORD, attacker)).status).toBe(429);
  });

  it('doubles the wait of a pair with each further failure: 1, 2, 4, 8, then at most 15 minutes', async () => {
    const email = await newAccount('patient');
    const attacker = client();
    for (let i = 1; i < LOGIN_BACKOFF.pair.free; i++) await attacker.passwordGrant(email, wrong(i));
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      waits.push((await refusal(await attacker.passwordGrant(email, wrong(10 + i)))).retryAfter);
      await waitsPass();
    }
    expect(waits).toEqual([60, 120, 240, 480, 900, 900]);
    // a success forgets the pair's failures
    expect((await attacker.passwordGrant(email, PASSWORD)).status).toBe(200);
    expect((await refusal(await attacker.passwordGrant(email, wrong(1)))).message).toBe('Invalid user credentials');
  });

  it('slows many addresses against one account: after 10 failures from unfamiliar addresses those wait, the owner signs in from an address used before, and a password reset by mail makes a new address familiar', async () => {
    const email = await newAccount('popular');
    const home = client();
    expect((await home.passwordGrant(email, PASSWORD)).status).toBe(200);

    const answers: string[] = [];
    for (let i = 1; i <= LOGIN_BACKOFF.account.free; i++) answers.push((await refusal(await client().passwordGrant(email, wrong(i)))).message);
    expect(answers.slice(0, -1).every((message) => message === 'Invalid user credentials')).toBe(true);
    expect(answers.at(-1)).toBe('Too many failed attempts. Try again in 1 minute.');

    // any unfamiliar address waits now, with the right password too; the owner's usual address does not
    const travelling = client();
    expect(await refusal(await travelling.passwordGrant(email, PASSWORD))).toMatchObject({ status: 400, message: TOO_MANY });
    expect((await home.passwordGrant(email, PASSWORD)).status).toBe(200);
    expect((await loginForm(email, PASSWORD, home)).status).toBe(303);

    // away from home, the owner resets the password by mail: that address is theirs now
    const jar = new CookieJar();
    const forgot = await (await travelling.get(`${h.issuer}/login-actions/reset-credentials`, jar)).text();
    await travelling.postForm(formAction(forgot), { csrf: formValue(forgot, 'csrf'), email }, jar);
    const resetJar = new CookieJar();
    const page = await (await travelling.get(await mailLinkFor(h, email, 'action-token'), resetJar)).text();
    const newPassword = 'Travel!Pass2';
    const done = await travelling.postForm(
      formAction(page),
      { csrf: formValue(page, 'csrf'), key: formValue(page, 'key'), password: newPassword, 'password-confirm': newPassword },
      resetJar,
    );
    expect(done.status).toBe(200);
    expect((await travelling.passwordGrant(email, newPassword)).status).toBe(200);
    expect((await client().passwordGrant(email, newPassword)).status).toBe(400);
  });

  it('holds an address after 20 failures against any accounts (credential stuffing), not the accounts elsewhere; an account that signed in from there before still does', async () => {
    const regular = await newAccount('regular');
    const other = await newAccount('other');
    const stuffer = client();
    expect((await stuffer.passwordGrant(regular, PASSWORD)).status).toBe(200);
    for (let i = 1; i <= LOGIN_BACKOFF.address.free; i++) await stuffer.passwordGrant(`stuffed-${i}-${randomBytes(3).toString('hex')}@forum.local`, wrong(i));
    expect(await refusal(await stuffer.passwordGrant(other, PASSWORD))).toMatchObject({ status: 400, message: TOO_MANY });
    expect((await client().passwordGrant(other, PASSWORD)).status).toBe(200);
    expect((await stuffer.passwordGrant(regular, PASSWORD)).status).toBe(200);
  });

  it('checks no more passwords than the back-off allows when the attempts come all at once', async () => {
    const email = await newAccount('raced');
    const attacker = client();
    const answers = await Promise.all(Array.from({ length: 20 }, async (_, i) => (await refusal(await attacker.passwordGrant(email, wrong(i)))).message));
    expect(answers.filter((message) => message === 'Invalid user credentials')).toHaveLength(LOGIN_BACKOFF.pair.free - 1);
    expect(answers.filter((message) => TOO_MANY.test(message))).toHaveLength(20 - (LOGIN_BACKOFF.pair.free - 1));
  });

  it('lets people who sign in at the same moment from one address all in (an office behind one address)', async () => {
    const office = client();
    const emails = await Promise.all(Array.from({ length: 10 }, (_, i) => newAccount(`colleague-${i}`)));
    const statuses = await Promise.all(emails.map(async (email) => (await office.passwordGrant(email, PASSWORD)).status));
    expect(statuses).toEqual(Array(10).fill(200));
  });
});
