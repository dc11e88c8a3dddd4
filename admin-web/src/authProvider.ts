import type { Auth } from '@forum/web-auth';
import type { AuthProvider, UserIdentity } from 'react-admin';
import { consoleUrl } from './auth';
import { ADMIN_ROLE, consoleRoleOf, mayAccess, MODERATOR_ROLE } from './permissions';

const FORUM_ROLES: readonly string[] = [ADMIN_ROLE, MODERATOR_ROLE];
const ROLE_CACHE_MS = 60_000;

/**
 * The forum's own role of the caller (GET /api/me): roles are the forum's facts (ADMIN_EMAILS,
 * make-admin, granted moderators), which a token may not carry yet. null when the call fails.
 */
async function fetchForumRole(token: string | undefined): Promise<string | null> {
  if (!token) return null;
  const response = await fetch('/api/me', { headers: { Authorization: `Bearer ${token}` } });
  if (!response.ok) return null;
  const body = (await response.json()) as { role?: unknown };
  return typeof body.role === 'string' ? body.role : null;
}

/**
 * react-admin on the shared auth module. There is no login form here: signing in is the realm's
 * page, so an unauthenticated visit goes there and comes back to the page it asked for.
 */
export function createAuthProvider(auth: Auth): AuthProvider {
  const signedIn = () => auth.getState().status === 'authenticated';
  let forumRole: { userId: string; at: number; role: Promise<string | null> } | null = null;

  /** `realm_access.roles` of the token, with admin and moderator decided by the forum's own record when it answers. */
  async function roles(): Promise<string[]> {
    const user = auth.getState().user;
    if (!user) return [];
    if (!forumRole || forumRole.userId !== user.id || Date.now() - forumRole.at > ROLE_CACHE_MS) {
      forumRole = {
        userId: user.id,
        at: Date.now(),
        role: auth
          .token()
          .then(fetchForumRole)
          .catch(() => null),
      };
    }
    const role = await forumRole.role;
    if (role === null) return [...user.roles];
    const fromToken = user.roles.filter((r) => !FORUM_ROLES.includes(r));
    return FORUM_ROLES.includes(role) ? [...fromToken, role] : fromToken;
  }

  return {
    login: () => auth.login(),

    // never rejects for a visitor: react-admin would show its own login route; the realm's page is the login
    checkAuth: async () => {
      if (!signedIn()) await auth.login({ redirectUri: window.location.href });
    },

    checkError: async (error: { status?: number } | undefined) => {
      // 401: the token is gone for good only if a refresh cannot replace it. 403 is no reason to sign out.
      if (error?.status === 401 && !(await auth.token())) throw new Error('Your session has ended');
    },

    logout: async () => {
      if (signedIn()) await auth.logout({ redirectUri: consoleUrl() });
      await auth.login({ redirectUri: consoleUrl() });
    },

    getIdentity: (): Promise<UserIdentity> => {
      const user = auth.getState().user;
      if (!user) return Promise.reject(new Error('Not signed in'));
      return Promise.resolve({ id: user.id, fullName: user.name, ...(user.picture ? { avatar: user.picture } : {}), email: user.email });
    },

    getPermissions: roles,

    // the console is for staff (issue #43): each sees what their role may do (permissions.ts); the API checks again on every call
    canAccess: async ({ resource, action }) => mayAccess(consoleRoleOf(await roles()), resource, action),
  };
}
