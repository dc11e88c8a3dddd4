import type { Principal } from '@forum/platform';
import { describe, expect, it } from 'vitest';
import { serviceAccountMay } from './service-account.ts';

const withRoles = (clientRoles: Record<string, string[]>): Principal => ({
  subject: 'forum-identity-admin',
  email: '',
  emailVerified: false,
  name: '',
  picture: '',
  username: 'service-account-forum-identity-admin',
  handle: '',
  roles: [],
  clientRoles,
});

describe("the admin API's check of a service account: Keycloak's realm-management roles", () => {
  it('lets view-users read accounts and change none', () => {
    const viewer = withRoles({ 'realm-management': ['view-users'] });
    expect(serviceAccountMay(viewer, 'GET')).toBe(true);
    for (const method of ['POST', 'PUT', 'DELETE']) expect(serviceAccountMay(viewer, method), method).toBe(false);
  });

  it('lets manage-users read and change accounts', () => {
    const manager = withRoles({ 'realm-management': ['manage-users'] });
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) expect(serviceAccountMay(manager, method), method).toBe(true);
  });

  it("takes no role of another client, nor a realm role, for realm-management's", () => {
    expect(serviceAccountMay(withRoles({ account: ['manage-users', 'view-users'] }), 'GET')).toBe(false);
    expect(serviceAccountMay({ ...withRoles({}), roles: ['admin', 'manage-users'] }, 'GET')).toBe(false);
  });
});
