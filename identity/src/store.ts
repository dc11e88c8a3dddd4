import { createHash, generateKeyPairSync, randomBytes, randomUUID, type JsonWebKey } from 'node:crypto';
import { checkPhotoUrl, checkText, displayNameRule, handleText, isEmail, normalizeEmail, passwordProblem } from '@forum/contracts';
import { ConflictError, MAILBOX_DDL, ValidationError, type Knex } from '@forum/platform';
import { burnPasswordCheck, hashPassword, verifyPassword } from './password.ts';

export const SCHEMA = 'identity';

/** Serialises schema creation and key generation between processes starting at once. */
const INIT_LOCK = 'forum:identity:init';

const DDL = [
  `CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`,
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.accounts (
     id uuid PRIMARY KEY,
     email text NOT NULL,
     email_verified boolean NOT NULL DEFAULT false,
     name text NOT NULL,
     picture text NOT NULL DEFAULT '',
     password_hash text NOT NULL,
     roles text[] NOT NULL DEFAULT ARRAY['user']::text[],
     created_at timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT accounts_email_lower CHECK (email = lower(email))
   )`,
  `CREATE UNIQUE INDEX IF NOT EXISTS accounts_email_key ON ${SCHEMA}.accounts (email)`,
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.secrets (
     name text PRIMARY KEY,
     value jsonb NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.oidc_payloads (
     model text NOT NULL,
     id text NOT NULL,
     payload jsonb NOT NULL,
     grant_id text,
     user_code text,
     uid text,
     expires_at timestamptz,
     consumed_at timestamptz,
     PRIMARY KEY (model, id)
   )`,
  `CREATE INDEX IF NOT EXISTS oidc_payloads_grant_id ON ${SCHEMA}.oidc_payloads (grant_id) WHERE grant_id IS NOT NULL`,
  `CREATE INDEX IF NOT EXISTS oidc_payloads_uid ON ${SCHEMA}.oidc_payloads (uid) WHERE uid IS NOT NULL`,
  `CREATE INDEX IF NOT EXISTS oidc_payloads_user_code ON ${SCHEMA}.oidc_payloads (user_code) WHERE user_code IS NOT NULL`,
  `CREATE INDEX IF NOT EXISTS oidc_payloads_expires_at ON ${SCHEMA}.oidc_payloads (expires_at) WHERE expires_at IS NOT NULL`,
  `CREATE INDEX IF NOT EXISTS oidc_payloads_account ON ${SCHEMA}.oidc_payloads ((payload->>'accountId')) WHERE payload->>'accountId' IS NOT NULL`,
  // Keycloak's `enabled`; an empty password_hash means "no password" (Google-only accounts)
  `ALTER TABLE ${SCHEMA}.accounts ADD COLUMN IF NOT EXISTS enabled boolean NOT NULL DEFAULT true`,
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.federated_identities (
     provider text NOT NULL,
     subject text NOT NULL,
     account_id uuid NOT NULL REFERENCES ${SCHEMA}.accounts (id) ON DELETE CASCADE,
     email text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (provider, subject)
   )`,
  `CREATE INDEX IF NOT EXISTS federated_identities_account ON ${SCHEMA}.federated_identities (account_id)`,
  /** One-time links sent by mail (password reset): only a hash of the token is kept. */
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.action_tokens (
     token_hash text PRIMARY KEY,
     kind text NOT NULL,
     account_id uuid NOT NULL REFERENCES ${SCHEMA}.accounts (id) ON DELETE CASCADE,
     interaction_uid text,
     expires_at timestamptz NOT NULL,
     used_at timestamptz,
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE INDEX IF NOT EXISTS action_tokens_account ON ${SCHEMA}.action_tokens (account_id) WHERE used_at IS NULL`,
  /** state → PKCE verifier and nonce of a sign-in at an upstream provider (Google) in flight. */
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.broker_states (
     state_hash text PRIMARY KEY,
     provider text NOT NULL,
     interaction_uid text NOT NULL,
     code_verifier text NOT NULL,
     nonce text NOT NULL,
     expires_at timestamptz NOT NULL
   )`,
  /** Development mailbox: the mails the forum would have sent when no SMTP server is configured (platform's mailer). */
  ...MAILBOX_DDL.slice(1),
  /** rate-limiter-flexible's PostgreSQL store (its own layout; keys are HMACs, see throttle.ts). */
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.rate_limits (
     key text PRIMARY KEY,
     points integer NOT NULL DEFAULT 0,
     expire bigint
   )`,
  /** The sign-in back-off (login-backoff.ts): failures and waits per key (an HMAC of the pair, account or address). */
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.login_backoff (
     key text PRIMARY KEY,
     failures integer NOT NULL,
     blocked_until timestamptz NOT NULL,
     forget_at timestamptz NOT NULL
   )`,
  /** Sign-ins whose password is being checked, per back-off key (login-backoff.ts): each holds a try until it ends, or expires (a stopped process). */
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.login_in_flight (
     key text NOT NULL,
     attempt uuid NOT NULL,
     expires_at timestamptz NOT NULL,
     PRIMARY KEY (key, attempt)
   )`,
  /** Addresses an account signed in from lately (HMACs of account and address; account_key to forget them all). */
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.familiar_addresses (
     key text PRIMARY KEY,
     account_key text NOT NULL,
     expires_at timestamptz NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS familiar_addresses_account ON ${SCHEMA}.familiar_addresses (account_key)`,
  /** What a refused form shows once on its page after the redirect (flash.ts): JSON text (it may hold a NUL, which jsonb cannot); keys are hashes. */
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.form_flashes (
     key text PRIMARY KEY,
     value text NOT NULL,
     expires_at timestamptz NOT NULL
   )`,
  /** The member's handle (the forum's, docs/notifications.md#handles): chosen at registration or written by the forum; '' for none. */
  `ALTER TABLE ${SCHEMA}.accounts ADD COLUMN IF NOT EXISTS handle text NOT NULL DEFAULT ''`,
  /** One-time rewrites of the realm's data, each recorded when done (like eventstore.migrations). */
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.migrations (
     name text PRIMARY KEY,
     completed_at timestamptz NOT NULL DEFAULT now()
   )`,
];

/** The migration that rewrote stored addresses to their normal form (below). */
const EMAILS_NORMALIZED = 'emails-normalized';

/**
 * Addresses stored before normalizeEmail took the domain's trailing dot and NFC into account, in
 * that form now; the oldest account keeps an address several spellings share, and an address whose
 * normal form another account holds already is left as it is (no spelling reaches it: an operator
 * decides, see docs/security/identity.md). Once per database: new addresses are stored normal.
 */
const NORMALIZE_STORED_EMAILS = `UPDATE ${SCHEMA}.accounts a SET email = t.target
   FROM (
     SELECT DISTINCT ON (c.target) c.id, c.target
     FROM (
       SELECT id, created_at, normalize(regexp_replace(email, '\\.$', ''), NFC) AS target
       FROM ${SCHEMA}.accounts WHERE email LIKE '%@%.' OR email IS NOT NFC NORMALIZED
     ) c
     WHERE NOT EXISTS (SELECT 1 FROM ${SCHEMA}.accounts b WHERE b.email = c.target)
     ORDER BY c.target, c.created_at, c.id
   ) t
   WHERE a.id = t.id`;

export interface RealmSecrets {
  /** Private RS256 signing keys (JWK), newest first. */
  signingKeys: JsonWebKey[];
  /** Keys that sign the provider's cookies, newest first. */
  cookieKeys: string[];
  /** HMAC key of the JWT envelope around refresh tokens. */
  refreshTokenKey: string;
  /** HMAC key of the keys of the mail and registration limits and of the sign-in back-off. */
  throttleKey: string;
}

function base64url(input: Buffer | string) {
  return Buffer.from(input).toString('base64url');
}

/** RFC 7638 thumbprint of an RSA key: a stable kid. */
function rsaThumbprint(jwk: JsonWebKey): string {
  return createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n }))
    .digest('base64url');
}

function newSigningKey(): JsonWebKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return { ...jwk, kid: rsaThumbprint(jwk), alg: 'RS256', use: 'sig' };
}

const SECRET_FACTORIES: Record<string, () => unknown> = {
  'signing-keys': () => ({ keys: [newSigningKey()] }),
  'cookie-keys': () => ({ keys: [base64url(randomBytes(32))] }),
  'refresh-token-key': () => ({ key: base64url(randomBytes(32)) }),
  'throttle-key': () => ({ key: base64url(randomBytes(32)) }),
};

/**
 * Creates the schema and its tables when missing and the realm's secrets on first
 * start, under a transaction-scoped advisory lock (two processes may start at once;
 * ON CONFLICT keeps it safe even without the lock).
 */
export async function prepareStore(db: Knex): Promise<RealmSecrets> {
  return db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [INIT_LOCK]);
    for (const statement of DDL) await trx.raw(statement);
    const due = await trx.raw<{ rows: { name: string }[] }>(`INSERT INTO ${SCHEMA}.migrations (name) VALUES (?) ON CONFLICT (name) DO NOTHING RETURNING name`, [
      EMAILS_NORMALIZED,
    ]);
    if (due.rows.length > 0) await trx.raw(NORMALIZE_STORED_EMAILS);
    for (const [name, factory] of Object.entries(SECRET_FACTORIES)) {
      await trx.raw(`INSERT INTO ${SCHEMA}.secrets (name, value) VALUES (?, ?::jsonb) ON CONFLICT (name) DO NOTHING`, [name, JSON.stringify(factory())]);
    }
    const rows: Array<{ name: string; value: { keys?: unknown[]; key?: string } }> = await trx.withSchema(SCHEMA).select('name', 'value').from('secrets');
    const byName = new Map(rows.map((row) => [row.name, row.value]));
    return {
      signingKeys: (byName.get('signing-keys')?.keys ?? []) as JsonWebKey[],
      cookieKeys: (byName.get('cookie-keys')?.keys ?? []) as string[],
      refreshTokenKey: byName.get('refresh-token-key')?.key ?? '',
      throttleKey: byName.get('throttle-key')?.key ?? '',
    };
  });
}

export interface AccountRecord {
  id: string;
  email: string;
  emailVerified: boolean;
  name: string;
  picture: string;
  /** '' for none */
  handle: string;
  roles: string[];
  enabled: boolean;
  /** false for accounts made through Google (or the admin API without credentials) until a password is set */
  hasPassword: boolean;
  createdAt: Date;
}

export interface NewAccount {
  email: string;
  /** null or absent: an account without a password (it signs in through Google, or resets a password first) */
  password?: string | null;
  name: string;
  picture?: string;
  /** The handle chosen at registration ('' or absent: none; the forum gives one from the name). */
  handle?: string;
  roles?: string[];
  emailVerified?: boolean;
  enabled?: boolean;
}

interface AccountRow {
  id: string;
  email: string;
  email_verified: boolean;
  name: string;
  picture: string;
  handle: string;
  roles: string[];
  enabled: boolean;
  password_hash: string;
  created_at: Date;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function toRecord(row: AccountRow): AccountRecord {
  const roles = [...new Set(['user', ...(row.roles ?? [])])];
  return {
    id: row.id,
    email: row.email,
    emailVerified: row.email_verified,
    name: row.name,
    picture: row.picture,
    handle: row.handle,
    roles,
    enabled: row.enabled,
    hasPassword: row.password_hash !== '',
    createdAt: row.created_at,
  };
}

const COLUMNS = ['id', 'email', 'email_verified', 'name', 'picture', 'handle', 'roles', 'enabled', 'password_hash', 'created_at'];

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

export type ActionTokenState =
  { status: 'valid'; accountId: string; interactionUid: string | null } | { status: 'used' | 'expired'; accountId: string } | { status: 'unknown' };

/** Ends every sign-in of the account: all oidc-provider keeps for it (browser sessions, grants, refresh tokens, codes not yet exchanged). */
async function endSessions(trx: Knex | Knex.Transaction, accountId: string): Promise<void> {
  await trx.raw(`DELETE FROM ${SCHEMA}.oidc_payloads WHERE payload->>'accountId' = ?`, [accountId]);
}

const HANDLE = handleText();
/** What is wrong with a handle as the realm stores it ('' is none), or null (the rules: contracts' handleText). */
export const handleProblem = (handle: string): string | null => {
  if (handle === '') return null;
  const checked = HANDLE.safeParse(handle);
  return checked.success ? null : (checked.error.issues[0]?.message ?? 'Not a handle');
};

/** An account's name: the forum's display name (its text policy, see contracts). */
export const ACCOUNT_NAME = displayNameRule('Name', 'Name is required');

/** A name from elsewhere (Google, the admin API) cut to ACCOUNT_NAME's length by characters: never half an emoji. */
export const fitAccountName = (name: string) => Array.from(name).slice(0, ACCOUNT_NAME.max).join('');

/** `forumOrigin`: where browsers reach the forum; an account's picture may not point at it (see contracts' checkPhotoUrl). */
export function createAccountStore(db: Knex, { forumOrigin }: { forumOrigin: string }) {
  const accounts = () => db.withSchema(SCHEMA).from<AccountRow>('accounts');
  const byRow = (row: unknown) => (row ? toRecord(row as AccountRow) : null);
  /** The account of an address; what is not an address (NUL, a lone surrogate, 300 kB) names none and is never asked for. */
  const rowByEmail = async (email: string): Promise<unknown> => {
    const normal = normalizeEmail(email);
    return isEmail(normal) ? accounts().select(COLUMNS).where({ email: normal }).first() : undefined;
  };

  return {
    async create(input: NewAccount): Promise<{ id: string }> {
      const email = normalizeEmail(input.email ?? '');
      const problems: Record<string, string[]> = {};
      if (!isEmail(email)) problems.email = ['Enter a valid email address'];
      const name = checkText(input.name, ACCOUNT_NAME);
      if (!name.ok) problems.name = [name.message];
      const picture = checkPhotoUrl(input.picture ?? '', forumOrigin);
      if (!picture.ok) problems.picture = [picture.message];
      const handle = handleProblem(input.handle ?? '');
      if (handle) problems.handle = [handle];
      const password = input.password ?? null;
      const passwordIssue = password === null ? null : passwordProblem(password);
      if (passwordIssue) problems.password = [passwordIssue];
      const roles = [...new Set(['user', ...(input.roles ?? [])].map((role) => role.trim()).filter(Boolean))];
      if (!name.ok || !picture.ok || Object.keys(problems).length > 0) throw new ValidationError(problems);

      const id = randomUUID();
      const passwordHash = password === null ? '' : await hashPassword(password);
      const result = await db.raw<{ rows: { id: string }[] }>(
        `INSERT INTO ${SCHEMA}.accounts (id, email, name, picture, handle, password_hash, roles, email_verified, enabled)
         VALUES (?, ?, ?, ?, ?, ?, ?::text[], ?, ?)
         ON CONFLICT (email) DO NOTHING
         RETURNING id`,
        [id, email, name.value, picture.value, input.handle ?? '', passwordHash, roles, input.emailVerified ?? false, input.enabled ?? true],
      );
      if (result.rows.length === 0) throw new ConflictError('An account with this email already exists');
      return { id };
    },

    async findByEmail(email: string): Promise<AccountRecord | null> {
      return byRow(await rowByEmail(email));
    },

    async findById(id: string): Promise<AccountRecord | null> {
      if (!UUID.test(id)) return null;
      return byRow(await accounts().select(COLUMNS).where({ id }).first());
    },

    async list(first: number, max: number): Promise<AccountRecord[]> {
      const rows = await accounts()
        .select(COLUMNS)
        .orderBy([{ column: 'created_at' }, { column: 'id' }])
        .offset(first)
        .limit(max);
      return rows.map((row) => toRecord(row as AccountRow));
    },

    /**
     * The account when the email and password match; null otherwise (same time either way,
     * also for accounts without a password). Disabled accounts are returned: the caller says so.
     */
    async authenticate(email: string, password: string): Promise<AccountRecord | null> {
      if (typeof email !== 'string' || typeof password !== 'string' || password.length > 1024) return null;
      const row = (await rowByEmail(email)) as AccountRow | undefined;
      if (!row || row.password_hash === '') return burnPasswordCheck(password).then(() => null);
      return (await verifyPassword(password, row.password_hash)) ? toRecord(row) : null;
    },

    /** Sets a new password (rules of spec §5) and ends the account's sessions and refresh tokens. */
    async setPassword(accountId: string, password: string, trx: Knex | Knex.Transaction = db): Promise<void> {
      const issue = passwordProblem(password);
      if (issue) throw new ValidationError({ password: [issue] });
      const passwordHash = await hashPassword(password);
      await trx.raw(`UPDATE ${SCHEMA}.accounts SET password_hash = ? WHERE id = ?`, [passwordHash, accountId]);
      await endSessions(trx, accountId);
    },

    /**
     * The verified owner of the address takes an unverified account back: its password (chosen by
     * whoever registered first, who may not own the mailbox) goes, with every session, refresh token
     * and open mailed link; the email is verified. False when the account was verified meanwhile.
     */
    async takeBackUnverified(accountId: string): Promise<boolean> {
      return db.transaction(async (trx) => {
        const taken = await trx.raw<{ rows: { id: string }[] }>(
          `UPDATE ${SCHEMA}.accounts SET password_hash = '', email_verified = true WHERE id = ? AND NOT email_verified RETURNING id`,
          [accountId],
        );
        if (taken.rows.length === 0) return false;
        await endSessions(trx, accountId);
        await trx.raw(`UPDATE ${SCHEMA}.action_tokens SET used_at = now() WHERE account_id = ? AND used_at IS NULL`, [accountId]);
        return true;
      });
    },

    /**
     * The member's handle as the forum holds it (its admin API writes it after each change): the realm
     * keeps a copy for its tokens' `handle` claim; the forum decides who has which (uniqueness included).
     */
    async setHandle(accountId: string, handle: string): Promise<void> {
      const problem = handleProblem(handle);
      if (problem) throw new ValidationError({ handle: [problem] });
      await accounts().where({ id: accountId }).update({ handle });
    },

    async addRole(accountId: string, role: string): Promise<void> {
      await db.raw(`UPDATE ${SCHEMA}.accounts SET roles = array_append(roles, ?) WHERE id = ? AND NOT (? = ANY (roles))`, [role, accountId, role]);
    },

    async removeRole(accountId: string, role: string): Promise<void> {
      await db.raw(`UPDATE ${SCHEMA}.accounts SET roles = array_remove(roles, ?) WHERE id = ?`, [role, accountId]);
    },

    /** Enables or disables the account (Keycloak's `enabled`); disabling also ends its sessions, grants and refresh tokens. */
    async setEnabled(accountId: string, enabled: boolean): Promise<void> {
      if (!UUID.test(accountId)) return;
      await db.transaction(async (trx) => {
        await trx.raw(`UPDATE ${SCHEMA}.accounts SET enabled = ? WHERE id = ?`, [enabled, accountId]);
        if (!enabled) await endSessions(trx, accountId);
      });
    },

    /**
     * Deletes the account for good: its record, sessions, grants and tokens, links to other
     * providers, one-time links, and the development mailbox's mails to it.
     */
    async delete(accountId: string): Promise<void> {
      if (!UUID.test(accountId)) return;
      await db.transaction(async (trx) => {
        const gone = await trx.raw<{ rows: { email: string }[] }>(`DELETE FROM ${SCHEMA}.accounts WHERE id = ? RETURNING email`, [accountId]);
        const email = gone.rows[0]?.email;
        await endSessions(trx, accountId);
        if (email !== undefined) await trx.raw(`DELETE FROM ${SCHEMA}.mailbox WHERE recipient = ?`, [email]);
      });
    },

    async markEmailVerified(accountId: string, trx: Knex.Transaction): Promise<void> {
      await trx.raw(`UPDATE ${SCHEMA}.accounts SET email_verified = true WHERE id = ? AND NOT email_verified`, [accountId]);
    },

    // ---- identities at upstream providers (Google)
    async findLinked(provider: string, subject: string): Promise<AccountRecord | null> {
      const result = await db.raw<{ rows: AccountRow[] }>(
        `SELECT ${COLUMNS.map((column) => `a.${column}`).join(', ')}
         FROM ${SCHEMA}.accounts a JOIN ${SCHEMA}.federated_identities f ON f.account_id = a.id
         WHERE f.provider = ? AND f.subject = ?`,
        [provider, subject],
      );
      return byRow(result.rows[0]);
    },

    async link(provider: string, subject: string, accountId: string, email: string): Promise<void> {
      await db.raw(
        `INSERT INTO ${SCHEMA}.federated_identities (provider, subject, account_id, email) VALUES (?, ?, ?, ?)
         ON CONFLICT (provider, subject) DO NOTHING`,
        [provider, subject, accountId, email],
      );
    },

    // ---- one-time links sent by mail
    /** A new random token (32 bytes); only its SHA-256 is stored. */
    async issueActionToken(kind: string, accountId: string, ttlSeconds: number, interactionUid: string | null): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      await db.raw(
        `INSERT INTO ${SCHEMA}.action_tokens (token_hash, kind, account_id, interaction_uid, expires_at)
         VALUES (?, ?, ?, ?, now() + make_interval(secs => ?))`,
        [sha256Hex(token), kind, accountId, interactionUid, ttlSeconds],
      );
      return token;
    },

    async inspectActionToken(kind: string, token: string): Promise<ActionTokenState> {
      if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return { status: 'unknown' };
      const result = await db.raw<{ rows: { account_id: string; interaction_uid: string | null; used: boolean; expired: boolean }[] }>(
        `SELECT account_id, interaction_uid, used_at IS NOT NULL AS used, expires_at <= now() AS expired
         FROM ${SCHEMA}.action_tokens WHERE token_hash = ? AND kind = ?`,
        [sha256Hex(token), kind],
      );
      const row = result.rows[0];
      if (!row) return { status: 'unknown' };
      if (row.used) return { status: 'used', accountId: row.account_id };
      if (row.expired) return { status: 'expired', accountId: row.account_id };
      return { status: 'valid', accountId: row.account_id, interactionUid: row.interaction_uid };
    },

    /**
     * Uses the token once: inside one transaction the token (and every other open token of the
     * account) is marked used and `apply` runs; a token used or expired meanwhile gives its state.
     */
    async useActionToken(kind: string, token: string, apply: (accountId: string, trx: Knex.Transaction) => Promise<void>): Promise<ActionTokenState> {
      const state = await this.inspectActionToken(kind, token);
      if (state.status !== 'valid') return state;
      return db.transaction(async (trx) => {
        const claimed = await trx.raw<{ rows: { account_id: string; interaction_uid: string | null }[] }>(
          `UPDATE ${SCHEMA}.action_tokens SET used_at = now()
           WHERE token_hash = ? AND kind = ? AND used_at IS NULL AND expires_at > now()
           RETURNING account_id, interaction_uid`,
          [sha256Hex(token), kind],
        );
        const row = claimed.rows[0];
        if (!row) return { status: 'used', accountId: state.accountId } as const;
        await trx.raw(`UPDATE ${SCHEMA}.action_tokens SET used_at = now() WHERE account_id = ? AND kind = ? AND used_at IS NULL`, [row.account_id, kind]);
        await apply(row.account_id, trx);
        return { status: 'valid', accountId: row.account_id, interactionUid: row.interaction_uid } as const;
      });
    },
  };
}

export type AccountStore = ReturnType<typeof createAccountStore>;
