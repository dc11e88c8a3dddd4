import { createHash, generateKeyPairSync, randomBytes, randomUUID, type JsonWebKey } from 'node:crypto';
import { passwordProblem } from '@forum/contracts';
import { ConflictError, ValidationError, type Knex } from '@forum/platform';
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
];

export interface RealmSecrets {
  /** Private RS256 signing keys (JWK), newest first. */
  signingKeys: JsonWebKey[];
  /** Keys that sign the provider's cookies, newest first. */
  cookieKeys: string[];
  /** HMAC key of the JWT envelope around refresh tokens. */
  refreshTokenKey: string;
}

function base64url(input: Buffer | string) {
  return Buffer.from(input).toString('base64url');
}

/** RFC 7638 thumbprint of an RSA key: a stable kid. */
function rsaThumbprint(jwk: JsonWebKey): string {
  return createHash('sha256').update(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n })).digest('base64url');
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
    for (const [name, factory] of Object.entries(SECRET_FACTORIES)) {
      await trx.raw(`INSERT INTO ${SCHEMA}.secrets (name, value) VALUES (?, ?::jsonb) ON CONFLICT (name) DO NOTHING`, [
        name,
        JSON.stringify(factory()),
      ]);
    }
    const rows: Array<{ name: string; value: { keys?: unknown[]; key?: string } }> = await trx
      .withSchema(SCHEMA)
      .select('name', 'value')
      .from('secrets');
    const byName = new Map(rows.map((row) => [row.name, row.value]));
    return {
      signingKeys: (byName.get('signing-keys')?.keys ?? []) as JsonWebKey[],
      cookieKeys: (byName.get('cookie-keys')?.keys ?? []) as string[],
      refreshTokenKey: byName.get('refresh-token-key')?.key ?? '',
    };
  });
}

export interface AccountRecord {
  id: string;
  email: string;
  emailVerified: boolean;
  name: string;
  picture: string;
  roles: string[];
}

export interface NewAccount {
  email: string;
  password: string;
  name: string;
  picture?: string;
  roles?: string[];
}

interface AccountRow {
  id: string;
  email: string;
  email_verified: boolean;
  name: string;
  picture: string;
  roles: string[];
  password_hash: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function toRecord(row: AccountRow): AccountRecord {
  const roles = [...new Set(['user', ...(row.roles ?? [])])];
  return { id: row.id, email: row.email, emailVerified: row.email_verified, name: row.name, picture: row.picture, roles };
}

const COLUMNS = ['id', 'email', 'email_verified', 'name', 'picture', 'roles'];

export function createAccountStore(db: Knex) {
  const accounts = () => db.withSchema(SCHEMA).from<AccountRow>('accounts');

  return {
    async create(input: NewAccount): Promise<{ id: string }> {
      const email = normalizeEmail(input.email ?? '');
      const name = (input.name ?? '').trim();
      const problems: Record<string, string[]> = {};
      if (!EMAIL.test(email) || email.length > 254) problems.email = ['Enter a valid email address'];
      if (!name || name.length > 100) problems.name = ['Name must be 1 to 100 characters'];
      const passwordIssue = passwordProblem(input.password ?? '');
      if (passwordIssue) problems.password = [passwordIssue];
      const roles = [...new Set(['user', ...(input.roles ?? [])].map((role) => role.trim()).filter(Boolean))];
      if (Object.keys(problems).length > 0) throw new ValidationError(problems);

      const id = randomUUID();
      const passwordHash = await hashPassword(input.password);
      const result = await db.raw(
        `INSERT INTO ${SCHEMA}.accounts (id, email, name, picture, password_hash, roles)
         VALUES (?, ?, ?, ?, ?, ?::text[])
         ON CONFLICT (email) DO NOTHING
         RETURNING id`,
        [id, email, name, input.picture ?? '', passwordHash, roles],
      );
      if (result.rows.length === 0) throw new ConflictError('An account with this email already exists');
      return { id };
    },

    async findByEmail(email: string): Promise<AccountRecord | null> {
      const row = await accounts().select(COLUMNS).where({ email: normalizeEmail(email) }).first();
      return row ? toRecord(row as AccountRow) : null;
    },

    async findById(id: string): Promise<AccountRecord | null> {
      if (!UUID.test(id)) return null;
      const row = await accounts().select(COLUMNS).where({ id }).first();
      return row ? toRecord(row as AccountRow) : null;
    },

    /** The account when the email and password match; null otherwise (same time either way). */
    async authenticate(email: string, password: string): Promise<AccountRecord | null> {
      if (typeof email !== 'string' || typeof password !== 'string' || password.length > 1024) return null;
      const row = (await accounts()
        .select([...COLUMNS, 'password_hash'])
        .where({ email: normalizeEmail(email) })
        .first()) as AccountRow | undefined;
      if (!row) return burnPasswordCheck(password).then(() => null);
      return (await verifyPassword(password, row.password_hash)) ? toRecord(row) : null;
    },
  };
}

export type AccountStore = ReturnType<typeof createAccountStore>;
