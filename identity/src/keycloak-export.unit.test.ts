import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HANDLE_MAX, HANDLE_MIN, HANDLE_PATTERN, handleText, passwordProblem } from '@forum/contracts';
import { DEFAULT_AUDIENCE } from '@forum/platform';
import { describe, expect, it } from 'vitest';

/**
 * identity/keycloak/forum-realm.json is imported by `kc.sh import` / `--import-realm`, which reports
 * most mistakes only at import time on a real server. These checks catch them here: the file parses,
 * the clients, roles, policies and the Google provider are what the forum expects.
 */

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../keycloak/forum-realm.json');

interface ProtocolMapper {
  name: string;
  protocol: string;
  protocolMapper: string;
  config: Record<string, string>;
}
interface Client {
  clientId: string;
  description: string;
  enabled: boolean;
  publicClient: boolean;
  standardFlowEnabled: boolean;
  implicitFlowEnabled: boolean;
  directAccessGrantsEnabled: boolean;
  serviceAccountsEnabled: boolean;
  redirectUris: string[];
  webOrigins: string[];
  attributes: Record<string, string>;
  protocolMappers: ProtocolMapper[];
}
interface Role {
  name: string;
  composite: boolean;
  composites?: { realm?: string[] };
}
interface Realm {
  realm: string;
  enabled: boolean;
  [setting: string]: unknown;
  clients: Client[];
  roles: { realm: Role[] };
  defaultRole: { name: string };
  smtpServer: Record<string, string>;
  identityProviders: {
    alias: string;
    providerId: string;
    enabled: boolean;
    trustEmail: boolean;
    firstBrokerLoginFlowAlias: string;
    config: Record<string, string>;
  }[];
}

const text = readFileSync(file, 'utf8');
const realm = JSON.parse(text) as Realm;
const client = (id: string) => {
  const found = realm.clients.find((c) => c.clientId === id);
  if (!found) throw new Error(`no client ${id}`);
  return found;
};
const audience = DEFAULT_AUDIENCE;

/** Keycloak's policy string for the four rules it has here, evaluated the way Keycloak does. */
function policyAccepts(policy: string, password: string): boolean {
  return policy.split(/\s+and\s+/).every((rule) => {
    const [, name, n] = /^(\w+)\((\d+)\)$/.exec(rule.trim()) ?? [];
    const count = (re: RegExp) => [...password].filter((c) => re.test(c)).length;
    switch (name) {
      case 'length':
        return password.length >= Number(n);
      case 'upperCase':
        return count(/\p{Lu}/u) >= Number(n);
      case 'lowerCase':
        return count(/\p{Ll}/u) >= Number(n);
      case 'specialChars':
        return count(/[^\p{L}\p{N}]/u) >= Number(n);
      default:
        throw new Error(`unknown password policy rule ${rule}`);
    }
  });
}

describe('identity/keycloak/forum-realm.json', () => {
  it('is the realm "forum", enabled, and has only env placeholders (no Keycloak message keys the import would resolve)', () => {
    expect(realm.realm).toBe('forum');
    expect(realm.enabled).toBe(true);
    const placeholders = [...text.matchAll(/\$\{([^}]*)\}/g)].map((m) => m[1]);
    expect(placeholders.length).toBeGreaterThan(0);
    for (const name of placeholders) expect(name).toMatch(/^[A-Z][A-Z0-9_]*$/);
  });

  it.each(['forum-web', 'admin-web'])('%s is a public authorization-code client with PKCE S256 required', (id) => {
    const c = client(id);
    expect(c).toMatchObject({
      enabled: true,
      publicClient: true,
      standardFlowEnabled: true,
      implicitFlowEnabled: false,
      directAccessGrantsEnabled: false,
      serviceAccountsEnabled: false,
    });
    expect(c.attributes['pkce.code.challenge.method']).toBe('S256');
    const prefix = id === 'admin-web' ? 'https://forum.example.com/admin/' : 'https://forum.example.com/';
    expect(c.redirectUris).toEqual([`${prefix}*`]);
    expect(c.attributes['post.logout.redirect.uris']).toBe(`${prefix}*`);
    expect(c.webOrigins).toEqual(['https://forum.example.com']);
  });

  it('forum-cli has the password grant only, and is off: tests turn it on in their own realm', () => {
    expect(client('forum-cli')).toMatchObject({
      enabled: false,
      publicClient: true,
      standardFlowEnabled: false,
      implicitFlowEnabled: false,
      directAccessGrantsEnabled: true,
      redirectUris: [],
    });
    expect(client('forum-cli').description).toMatch(/^Tests only/);
  });

  it('has no other client, and none with a secret or a service account', () => {
    expect(realm.clients.map((c) => c.clientId).sort()).toEqual(['admin-web', 'forum-cli', 'forum-web']);
    for (const c of realm.clients) {
      expect(c.publicClient, c.clientId).toBe(true);
      expect(c.serviceAccountsEnabled, c.clientId).toBe(false);
      expect(c, c.clientId).not.toHaveProperty('secret');
    }
  });

  it.each(['forum-web', 'admin-web', 'forum-cli'])('%s puts the API audience the services expect into access tokens', (id) => {
    const mappers = client(id).protocolMappers.filter((m) => m.protocolMapper === 'oidc-audience-mapper');
    expect(mappers).toHaveLength(1);
    expect(mappers[0]).toMatchObject({
      protocol: 'openid-connect',
      config: { 'included.custom.audience': audience, 'access.token.claim': 'true', 'introspection.token.claim': 'true' },
    });
    expect(audience).toBe('urn:forum:api');
  });

  it('has the realm roles user (every new account), moderator and admin (the forum writes their copies: docs/keycloak.md)', () => {
    const names = realm.roles.realm.map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['user', 'moderator', 'admin']));
    const defaults = realm.roles.realm.find((r) => r.name === realm.defaultRole.name);
    expect(defaults?.composite).toBe(true);
    expect(defaults?.composites?.realm).toContain('user');
    expect(defaults?.composites?.realm).not.toContain('admin');
    expect(defaults?.composites?.realm).not.toContain('moderator');
    for (const composite of defaults?.composites?.realm ?? []) expect(names).toContain(composite);
  });

  it("has the password policy of spec §5, and it agrees with the forum's own checks", () => {
    const policy = realm.passwordPolicy as string;
    expect(policy).toBe('length(8) and upperCase(1) and lowerCase(1) and specialChars(1)');
    for (const password of ['Abcdefg!', 'Abcdef!', 'abcdefg!', 'ABCDEFG!', 'Abcdefgh', 'Long enough, Right?']) {
      expect(policyAccepts(policy, password), password).toBe(passwordProblem(password) === null);
    }
  });

  it('lets people register, reset their password and sign in with their email, one account per email, verified by mail', () => {
    expect(realm).toMatchObject({
      registrationAllowed: true,
      registrationEmailAsUsername: true,
      resetPasswordAllowed: true,
      loginWithEmailAllowed: true,
      duplicateEmailsAllowed: false,
      // the forum makes only verified addresses admins (ADMIN_EMAILS): Keycloak asks for the mailed link before the first sign-in
      verifyEmail: true,
    });
  });

  it('locks accounts temporarily after repeated failed sign-ins', () => {
    expect(realm.bruteForceProtected).toBe(true);
    expect(realm.permanentLockout).toBe(false);
    expect(realm.failureFactor).toBeGreaterThanOrEqual(3);
    expect(realm.failureFactor).toBeLessThanOrEqual(30);
    expect(realm.waitIncrementSeconds).toBeGreaterThan(0);
    expect(realm.maxFailureWaitSeconds).toBeGreaterThanOrEqual(realm.waitIncrementSeconds as number);
    expect(realm.maxDeltaTimeSeconds).toBeGreaterThan(0);
  });

  it('sends mail through SMTP settings that are placeholders, and holds no secret', () => {
    expect(realm.smtpServer).toMatchObject({ host: '${SMTP_HOST}', from: '${SMTP_FROM}', auth: 'true', user: '${SMTP_USER}', password: '${SMTP_PASSWORD}' });
    const secrets: [string, unknown][] = [];
    const walk = (value: unknown, key = '') => {
      if (Array.isArray(value)) value.forEach((v) => walk(v, key));
      else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
      else if (/secret|password|credential/i.test(key) && typeof value === 'string') secrets.push([key, value]);
    };
    walk(realm);
    expect(secrets.length).toBeGreaterThan(0);
    for (const [key, value] of secrets) {
      if (key === 'passwordPolicy') continue;
      expect(value, key).toMatch(/^\$\{[A-Z0-9_]+\}$/);
    }
  });

  it("offers Google sign-in with placeholder credentials, trusting Google's verified emails", () => {
    const google = realm.identityProviders.find((p) => p.alias === 'google');
    expect(google).toMatchObject({
      providerId: 'google',
      enabled: true,
      trustEmail: true,
      firstBrokerLoginFlowAlias: 'first broker login',
      config: { clientId: '${GOOGLE_CLIENT_ID}', clientSecret: '${GOOGLE_CLIENT_SECRET}' },
    });
  });

  describe('the handle (docs/notifications.md#handles)', () => {
    interface ProfileAttribute {
      name: string;
      validations?: { length?: { min?: number; max?: number }; pattern?: { pattern: string; 'error-message': string } };
      permissions?: { view: string[]; edit: string[] };
      required?: unknown;
    }
    const components = realm.components as Record<string, { providerId: string; config: Record<string, string[]> }[]>;
    const providers = components['org.keycloak.userprofile.UserProfileProvider'] ?? [];
    const profile = JSON.parse(providers[0]?.config['kc.user.profile.config']?.[0] ?? '{}') as { attributes: ProfileAttribute[] };
    const handle = profile.attributes.find((a) => a.name === 'handle');

    it('is a user-profile attribute with the forum’s rules (length, pattern and its message), optional', () => {
      expect(providers.map((p) => p.providerId)).toEqual(['declarative-user-profile']);
      expect(profile.attributes.map((a) => a.name)).toEqual(['username', 'email', 'firstName', 'lastName', 'handle']);
      expect(handle?.validations?.length).toEqual({ min: HANDLE_MIN, max: HANDLE_MAX });
      expect(handle?.validations?.pattern?.pattern).toBe(HANDLE_PATTERN.source);
      const message = handleText()
        .safeParse('a..b')
        .error?.issues.map((issue) => issue.message);
      expect(message).toContain(handle?.validations?.pattern?.['error-message']);
      expect(handle).not.toHaveProperty('required');
      expect(handle?.permissions?.edit).toEqual(['admin', 'user']);
    });

    it.each(['forum-web', 'admin-web', 'forum-cli'])('%s puts the attribute into its tokens as the claim handle', (id) => {
      const mappers = client(id).protocolMappers.filter((m) => m.protocolMapper === 'oidc-usermodel-attribute-mapper');
      expect(mappers).toHaveLength(1);
      expect(mappers[0]!.config).toMatchObject({
        'user.attribute': 'handle',
        'claim.name': 'handle',
        'jsonType.label': 'String',
        'access.token.claim': 'true',
        'id.token.claim': 'true',
      });
    });
  });
});
