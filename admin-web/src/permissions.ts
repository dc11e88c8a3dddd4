import type { Role } from '@forum/contracts';
import { usePermissions } from 'react-admin';

/** The roles the console opens for (issue #43): admins and moderators. */
export type ConsoleRole = Extract<Role, 'admin' | 'moderator'>;

export const ADMIN_ROLE = 'admin';
export const MODERATOR_ROLE = 'moderator';

/** The console role among `getPermissions`' roles (the token's, the forum's own role decided): admin before moderator; null for anyone else. */
export function consoleRoleOf(roles: unknown): ConsoleRole | null {
  if (!Array.isArray(roles)) return null;
  if (roles.includes(ADMIN_ROLE)) return ADMIN_ROLE;
  return roles.includes(MODERATOR_ROLE) ? MODERATOR_ROLE : null;
}

/**
 * What a moderator may do in the console, per resource and action (react-admin's `canAccess`;
 * docs/console.md). Admins may do everything; the API checks again on every call. `list` opens a
 * page and its menu entry; the other actions are the buttons (and `email` the users' email column,
 * `stats` the dashboard's statistics and tags).
 */
const MODERATOR_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  dashboard: ['list'],
  reports: ['list', 'dismiss', 'hide', 'delete', 'warn', 'suspend'],
  posts: ['list', 'edit', 'hide', 'lock', 'pin', 'delete'],
  'manage-users': ['list', 'warn', 'suspend'],
  audit: ['list'],
  history: ['list'],
};

/** Whether `role` may take `action` on `resource`. */
export function mayAccess(role: ConsoleRole | null, resource: string, action: string): boolean {
  if (role === ADMIN_ROLE) return true;
  if (role !== MODERATOR_ROLE) return false;
  return MODERATOR_ACTIONS[resource]?.includes(action) ?? false;
}

/**
 * The signed-in caller's console role and what it allows on `resource` (the buttons of a row ask
 * once for all of them; react-admin caches the permissions).
 */
export function useConsolePermissions(resource: string) {
  const permissions: unknown = usePermissions().permissions;
  const role = consoleRoleOf(permissions);
  return { role, may: (action: string) => mayAccess(role, resource, action) };
}
