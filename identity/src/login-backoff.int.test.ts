import { randomBytes } from 'node:crypto';
import { LOGIN_BACKOFF } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyedMac } from './throttle.ts';
import { alertOf, authorizationRequest, clientAt, CookieJar, formAction, formValue, mailLinkFor, startHarness, type Harness } from './test-support.ts';

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

/** The login page opened and posted from one address. */
async function loginForm(email: string, password: string, from: ReturnType<typeof client>) {
  const jar = new CookieJar();
  const start = await from.get(authorizationRequest(h).url, jar);
  const html = await (await from.get(start.headers.get('location')!, jar)).text();
  return from.postForm(formAction(html), { csrf: formValue(html, 'csrf'), email, password }, jar);
}

/** 200, or the refusal's message (what a failed expectation should show). */
const refusalOr200 = async (res: Response) => (res.status === 200 ? 200 : `${res.status} ${(await refusal(res)).message}`);

/** The back-off's key of a (client address, account) pair, as the realm makes it (an HMAC under its throttle secret). */
async function pairKey(email: string, address: string) {
  const secret = await h.db.raw<{ rows: { key: string }[] }>(`SELECT value->>'key' AS key FROM identity.secrets WHERE name = 'throttle-key'`);
  return keyedMac(Buffer.from(secret.rows[0]!.key, 'base64url'))('pair', address, email);
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
});

/**
 * Sign-ins in flight are not failures: only a wrong password counts. Attempts beyond what the
 * back-off would still allow if every one in flight failed wait for those to finish (they are not
 * refused), so a flood of guesses sent at once checks no more passwords than one sent in turn.
 */
describe('sign-ins at the same moment', () => {
  const SCHOOL = 50;
  /** 50 accounts made (a scrypt hash each) and 50 sign-ins checked (another each) on 2 shared cores: about 20 s of the default 30 measured under load. */
  const MANY = { timeout: 120_000 };
  const accounts = (count: number, name: string) => Promise.all(Array.from({ length: count }, (_, i) => newAccount(`${name}-${i}`)));

  it(`lets ${SCHOOL} members with the right password sign in at once from one address through the password grant`, MANY, async () => {
    const school = client();
    const emails = await accounts(SCHOOL, 'pupil');
    const answers = await Promise.all(emails.map(async (email) => refusalOr200(await school.passwordGrant(email, PASSWORD))));
    expect(answers).toEqual(Array(SCHOOL).fill(200));
  });

  it(`lets ${SCHOOL} members with the right password sign in at once from one address through the login page`, MANY, async () => {
    const school = client();
    const emails = await accounts(SCHOOL, 'student');
    const answers = await Promise.all(
      emails.map(async (email) => {
        const res = await loginForm(email, PASSWORD, school);
        // a signed-in form goes on to the authorization endpoint; a refused one comes back as its page with the message
        return res.status === 303 ? 303 : `${res.status} ${alertOf(await res.text())}`;
      }),
    );
    expect(answers).toEqual(Array(SCHOOL).fill(303));
  });

  it('lets one member sign in 30 times at once from one address (tabs, devices, a load test), through the grant and the page', MANY, async () => {
    const email = await newAccount('busy');
    const home = client();
    const grants = await Promise.all(Array.from({ length: 30 }, async () => refusalOr200(await home.passwordGrant(email, PASSWORD))));
    expect(grants).toEqual(Array(30).fill(200));
    const forms = await Promise.all(Array.from({ length: 30 }, async () => (await loginForm(email, PASSWORD, home)).status));
    expect(forms).toEqual(Array(30).fill(303));
  });

  it('still checks only the allowed number of passwords in a parallel flood: 5 per pair, 20 per address across accounts, and then refuses', MANY, async () => {
    const email = await newAccount('flooded');
    const guesser = client();
    const pair = await Promise.all(Array.from({ length: 40 }, async (_, i) => (await refusal(await guesser.passwordGrant(email, wrong(i)))).message));
    expect(pair.filter((message) => message === 'Invalid user credentials')).toHaveLength(LOGIN_BACKOFF.pair.free - 1);
    expect(pair.filter((message) => TOO_MANY.test(message))).toHaveLength(40 - (LOGIN_BACKOFF.pair.free - 1));

    const stuffer = client();
    const victims = await accounts(60, 'stuffed');
    const spread = await Promise.all(victims.map(async (victim, i) => (await refusal(await stuffer.passwordGrant(victim, wrong(i)))).message));
    expect(spread.filter((message) => message === 'Invalid user credentials')).toHaveLength(LOGIN_BACKOFF.address.free - 1);
    expect(spread.filter((message) => TOO_MANY.test(message))).toHaveLength(60 - (LOGIN_BACKOFF.address.free - 1));
    // the owner's right password from the guesser's address waits like any other try there
    expect((await stuffer.passwordGrant(victims[0]!, PASSWORD)).status).toBe(400);
    expect((await client().passwordGrant(victims[0]!, PASSWORD)).status).toBe(200);
  });

  it('a sign-in in flight that a stopped process left behind holds its place only until it expires', async () => {
    const email = await newAccount('stranded');
    const from = client();
    // five attempts in flight that nobody will finish, as a process killed during the password check leaves them
    await h.db.raw(
      `INSERT INTO identity.login_in_flight (key, attempt, expires_at)
       SELECT key, gen_random_uuid(), clock_timestamp() + interval '2 seconds' FROM (VALUES (:pair)) AS keys(key), generate_series(1, 5)`,
      { pair: await pairKey(email, from.address) },
    );
    const started = Date.now();
    expect((await from.passwordGrant(email, PASSWORD)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
  });
});
