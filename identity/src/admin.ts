import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkPhotoUrl, isEmail, normalizeEmail, PASSWORD_RULES, passwordProblem } from '@forum/contracts';
import { ConflictError, ValidationError, type Logger, type TokenVerifier } from '@forum/platform';
import { z } from 'zod';
import { methodNotAllowed, readJson, sendJson, type JsonBody } from './http.ts';
import { BODY_TOO_LARGE_MESSAGE, MALFORMED_HOST_MESSAGE } from './messages.ts';
import { hasValidHost } from './request-host.ts';
import { serviceAccountMay } from './service-account.ts';
import { fitAccountName, handleProblem, type AccountRecord, type AccountStore, type NewAccount } from './store.ts';

/**
 * The part of Keycloak's admin REST API that scripts use to make accounts:
 *   POST /admin/realms/forum/users            (UserRepresentation with a password credential)
 *   GET  /admin/realms/forum/users?email=…    (exact match; also username=…, first, max)
 *   GET  /admin/realms/forum/users/{id}
 *   PUT  /admin/realms/forum/users/{id}        ({"enabled": true | false}; other fields are not changed here)
 *   DELETE /admin/realms/forum/users/{id}
 * Only for a bearer access token of the realm whose account has the role 'admin', or of the realm's
 * service account with Keycloak's realm-management roles (service-account.ts). Disabling,
 * enabling and deleting tell the forum first (AccountHooks), so that it refuses the account's
 * tokens at once (docs/security/erasure.md).
 */
export const ADMIN_PATH = '/admin/realms/forum';

/** Keycloak's message keys for the password policy rules, in the order of contracts' PASSWORD_RULES. */
const POLICY_ERRORS = [
  'invalidPasswordMinLengthMessage',
  'invalidPasswordMinUpperCaseCharsMessage',
  'invalidPasswordMinLowerCaseCharsMessage',
  'invalidPasswordMinSpecialCharsMessage',
] as const;

const UserRepresentation = z.looseObject({
  username: z.string().max(254).optional(),
  email: z.string().max(254).optional(),
  firstName: z.string().max(100).optional(),
  lastName: z.string().max(100).optional(),
  enabled: z.boolean().optional(),
  emailVerified: z.boolean().optional(),
  attributes: z.record(z.string(), z.array(z.string())).optional(),
  credentials: z
    .array(z.looseObject({ type: z.string().optional(), value: z.string().max(1024).optional(), temporary: z.boolean().optional() }))
    .max(5)
    .optional(),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function toRepresentation(record: AccountRecord) {
  return {
    id: record.id,
    username: record.email,
    email: record.email,
    emailVerified: record.emailVerified,
    firstName: record.name,
    enabled: record.enabled,
    createdTimestamp: record.createdAt.getTime(),
    attributes: { ...(record.picture ? { picture: [record.picture] } : {}), ...(record.handle ? { handle: [record.handle] } : {}) },
    totp: false,
    requiredActions: [],
  };
}

/** What the forum is told before the realm changes an account (the composition appends the forum's events). */
export interface AccountHooks {
  /** Before an account is enabled or disabled by `adminId`; the change waits until it resolves. */
  accessChanging(accountId: string, enabled: boolean, adminId: string): Promise<void>;
  /** Before an account is deleted by `adminId`: the forum erases it. */
  deleting(accountId: string, adminId: string): Promise<void>;
}

export interface AdminApiOptions {
  publicOrigin: string;
  accounts: AccountStore;
  createAccount(input: NewAccount): Promise<{ id: string }>;
  verifyAccessToken: TokenVerifier;
  /** The check of the service account's tokens: the realm's own, for the admin API's audience. */
  verifyServiceAccountToken: TokenVerifier;
  log: Logger;
  hooks?: AccountHooks;
}

const AccountChange = z.looseObject({
  enabled: z.boolean().optional(),
  attributes: z.looseObject({ handle: z.array(z.string().max(1024)).max(1).optional() }).optional(),
});

/** Who calls the admin API: an admin's account id, or the service account's name (`service-account-<client id>`, as Keycloak names it). */
interface Caller {
  readonly id: string;
}

export function createAdminHandler(options: AdminApiOptions) {
  const { accounts, log } = options;
  const error = (res: ServerResponse, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    sendJson(res, status, body, headers);

  /** A body that could not be read: 415 for another type, 413 past the limit, 400 for what is not JSON. */
  const refuseBody = (res: ServerResponse, reason: Extract<JsonBody, { ok: false }>['reason']) => {
    if (reason === 'type') return error(res, 415, { error: 'unknown_error', errorMessage: 'Content-Type must be application/json' });
    if (reason === 'size') return error(res, 413, { error: 'invalid_request', errorMessage: BODY_TOO_LARGE_MESSAGE });
    return error(res, 400, { error: 'unknown_error', errorMessage: 'The body is not valid JSON' });
  };

  /**
   * Who is behind the bearer token (its id is the actor of what the forum records), or null when the
   * answer (401/403) was sent: an admin's account, or the service account with the roles `method` needs.
   */
  async function authorize(req: IncomingMessage, res: ServerResponse): Promise<Caller | null> {
    const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(String(req.headers.authorization ?? ''));
    if (!match) {
      error(res, 401, { error: 'HTTP 401 Unauthorized' }, { 'WWW-Authenticate': 'Bearer realm="forum"' });
      return null;
    }
    const token = match[1]!;
    const invalid = () => {
      error(res, 401, { error: 'HTTP 401 Unauthorized' }, { 'WWW-Authenticate': 'Bearer realm="forum", error="invalid_token"' });
      return null;
    };
    const service = await options.verifyServiceAccountToken(token).catch(() => null);
    if (service) {
      if (serviceAccountMay(service, req.method ?? '')) return { id: service.username || service.subject };
      error(res, 403, { error: 'HTTP 403 Forbidden' });
      return null;
    }
    let subject: string;
    try {
      subject = (await options.verifyAccessToken(token)).subject;
    } catch {
      return invalid();
    }
    // the account's roles as they are now, not as they were when the token was issued
    const caller = await accounts.findById(subject);
    if (!caller || !caller.enabled) return invalid();
    if (!caller.roles.includes('admin')) {
      error(res, 403, { error: 'HTTP 403 Forbidden' });
      return null;
    }
    return caller;
  }

  async function createUser(req: IncomingMessage, res: ServerResponse, caller: Caller) {
    const body = await readJson(req);
    if (!body.ok) return refuseBody(res, body.reason);
    const parsed = UserRepresentation.safeParse(body.value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      error(res, 400, { error: 'unknown_error', errorMessage: `Invalid field ${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}` });
      return;
    }
    const rep = parsed.data;
    // the realm signs in with the email: username must be the email (or absent)
    const email = normalizeEmail(rep.email ?? (rep.username?.includes('@') ? rep.username : '') ?? '');
    if (!isEmail(email)) {
      error(res, 400, { field: 'email', error: 'error-invalid-email', errorMessage: 'Enter a valid email address' });
      return;
    }
    if (rep.username && normalizeEmail(rep.username) !== email) {
      error(res, 400, { field: 'username', error: 'error-invalid-username', errorMessage: 'The username must be the email address' });
      return;
    }
    const credentials = rep.credentials ?? [];
    if (credentials.some((c) => (c.type ?? 'password') !== 'password')) {
      error(res, 400, { error: 'invalid_credential', errorMessage: 'Only password credentials are supported' });
      return;
    }
    if (credentials.some((c) => c.temporary === true)) {
      error(res, 400, { error: 'invalid_credential', errorMessage: 'Temporary passwords are not supported' });
      return;
    }
    if (credentials.length > 1) {
      error(res, 400, { error: 'invalid_credential', errorMessage: 'Give at most one password credential' });
      return;
    }
    const password = credentials[0]?.value ?? null;
    if (credentials.length === 1 && password === null) {
      error(res, 400, { error: 'invalid_credential', errorMessage: 'The password credential has no value' });
      return;
    }
    if (password !== null) {
      const problem = passwordProblem(password);
      if (problem) {
        const index = PASSWORD_RULES.findIndex((rule) => rule.message === problem);
        error(res, 400, { error: POLICY_ERRORS[index] ?? 'invalidPasswordMessage', errorMessage: problem });
        return;
      }
    }
    const name = [rep.firstName?.trim(), rep.lastName?.trim()].filter(Boolean).join(' ') || email.split('@')[0]!;
    // the forum's rules for a photo (not its own origin; https, but for a forum on this machine): the store's, said as Keycloak would
    const picture = checkPhotoUrl(rep.attributes?.picture?.[0] ?? '', options.publicOrigin);
    if (!picture.ok) {
      error(res, 400, { field: 'picture', error: 'error-invalid-uri', errorMessage: picture.message });
      return;
    }
    try {
      const { id } = await options.createAccount({
        email,
        password,
        name: fitAccountName(name),
        picture: picture.value,
        emailVerified: rep.emailVerified ?? false,
        enabled: rep.enabled ?? false, // Keycloak: a user is disabled unless `enabled: true`
      });
      log.info({ accountId: id, by: caller.id }, 'account created through the admin API');
      res.statusCode = 201;
      res.setHeader('Location', `${options.publicOrigin}${ADMIN_PATH}/users/${id}`);
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Content-Length', '0');
      res.end();
    } catch (err) {
      if (err instanceof ConflictError) {
        error(res, 409, { errorMessage: 'User exists with same email' });
        return;
      }
      if (err instanceof ValidationError) {
        const [field, messages] = Object.entries(err.fieldErrors)[0] ?? ['body', ['is not valid']];
        error(res, 400, { field, error: 'unknown_error', errorMessage: messages[0] });
        return;
      }
      throw err;
    }
  }

  async function listUsers(res: ServerResponse, query: URLSearchParams) {
    const email = query.get('email') ?? query.get('username');
    if (email !== null) {
      const record = await accounts.findByEmail(email);
      sendJson(res, 200, record ? [toRepresentation(record)] : []);
      return;
    }
    const first = Math.max(0, Number.parseInt(query.get('first') ?? '0', 10) || 0);
    const max = Math.min(100, Math.max(1, Number.parseInt(query.get('max') ?? '100', 10) || 100));
    sendJson(res, 200, (await accounts.list(first, max)).map(toRepresentation));
  }

  async function route(req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) {
    if (!hasValidHost(req)) return error(res, 400, { error: 'invalid_request', errorMessage: MALFORMED_HOST_MESSAGE });
    // mounted under a prefix that is already gone (an Express app's use) or handed the whole URL (the gateway's raw mount): strip it here
    let path = new URL(req.url ?? '/', 'http://admin.invalid').pathname;
    if (req.originalUrl === undefined && (path === ADMIN_PATH || path.startsWith(`${ADMIN_PATH}/`))) path = path.slice(ADMIN_PATH.length) || '/';
    const query = new URL(req.url ?? '/', 'http://admin.invalid').searchParams;
    path = path.replace(/\/+$/, '') || '/';

    const users = path === '/users';
    const one = /^\/users\/([^/]+)$/.exec(path);
    if (!users && !one) {
      error(res, 404, { error: 'Not Found' });
      return;
    }
    if (users && req.method !== 'GET' && req.method !== 'POST') return methodNotAllowed(res, 'GET, POST');
    if (one && !['GET', 'PUT', 'DELETE'].includes(req.method ?? '')) return methodNotAllowed(res, 'GET, PUT, DELETE');

    const caller = await authorize(req, res);
    if (!caller) return;
    if (users && req.method === 'POST') return createUser(req, res, caller);
    if (users) return listUsers(res, query);
    const id = one![1]!;
    const record = UUID.test(id) ? await accounts.findById(id) : null;
    if (!record) return error(res, 404, { error: 'User not found' });
    if (req.method === 'PUT') return changeAccess(req, res, caller, record);
    if (req.method === 'DELETE') return deleteUser(res, caller, record);
    sendJson(res, 200, toRepresentation(record));
  }

  const noContent = (res: ServerResponse) => {
    res.statusCode = 204;
    res.setHeader('Cache-Control', 'no-store');
    res.end();
  };

  /**
   * PUT …/users/{id}: Keycloak's user update, of which the realm takes `enabled` (the forum is told
   * first) and the attribute `handle` (the forum writes it after a member's handle changed: the forum
   * decides handles, the realm keeps a copy for its tokens).
   */
  async function changeAccess(req: IncomingMessage, res: ServerResponse, caller: Caller, record: AccountRecord) {
    const body = await readJson(req);
    if (!body.ok) return refuseBody(res, body.reason);
    const parsed = AccountChange.safeParse(body.value);
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path[0] === 'attributes' ? 'attributes: expected { handle: [string] }' : 'enabled: expected a boolean';
      return error(res, 400, { error: 'unknown_error', errorMessage: `Invalid field ${field}` });
    }
    const { enabled } = parsed.data;
    const handle = parsed.data.attributes?.handle?.[0];
    if (handle !== undefined && handle !== record.handle) {
      const problem = handleProblem(handle);
      if (problem) return error(res, 400, { field: 'handle', error: 'error-invalid-value', errorMessage: problem });
      await accounts.setHandle(record.id, handle);
      log.info({ accountId: record.id, by: caller.id }, 'account handle changed through the admin API');
    }
    if (enabled !== undefined && enabled !== record.enabled) {
      await options.hooks?.accessChanging(record.id, enabled, caller.id);
      await accounts.setEnabled(record.id, enabled);
      log.info({ accountId: record.id, enabled, by: caller.id }, 'account access changed through the admin API');
    }
    noContent(res);
  }

  /** DELETE …/users/{id}: the forum erases the account first (its data then reads as erased), then the realm forgets it. */
  async function deleteUser(res: ServerResponse, caller: Caller, record: AccountRecord) {
    await options.hooks?.deleting(record.id, caller.id);
    await accounts.delete(record.id);
    log.info({ accountId: record.id, by: caller.id }, 'account deleted through the admin API');
    noContent(res);
  }

  return (req: IncomingMessage, res: ServerResponse) => {
    route(req, res).catch((err: unknown) => {
      log.error({ err }, 'identity admin request failed');
      if (!res.headersSent) sendJson(res, 500, { error: 'unknown_error' });
      else res.end();
    });
  };
}
