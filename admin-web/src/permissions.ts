import type { Role } from '@forum/contracts';

/** The roles the console opens for (issue #43): admins and moderators. */
export type ConsoleRole = Extract<Role, 'admin' | 'moderator'>;

export const isConsoleRole = (role: unknown): role is ConsoleRole => role === 'admin' || role === 'moderator';

/**
 * What a moderator may do in the console, per resource and action (react-admin's `canAccess`;
 * docs/console.md). Admins may do everything; the API checks again on every call. `list` opens a
 * page and its menu entry; the other actions are the buttons (and `email` the users' email column).
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
  if (role === 'admin') return true;
  if (role !== 'moderator') return false;
  return MODERATOR_ACTIONS[resource]?.includes(action) ?? false;
}
