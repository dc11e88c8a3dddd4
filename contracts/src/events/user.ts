import { z } from 'zod';
import { defineEvent, isoDate } from './define.ts';

/** A user's stream is named by the identity provider's subject (`sub`). */
export const userStream = (userId: string) => `user-${userId}`;

/** First authenticated request of a subject: the forum's own record of the user begins. */
export const UserRegistered = defineEvent(
  'UserRegistered',
  1,
  z.object({
    userId: z.string(),
    email: z.string(),
    name: z.string(),
    photoURL: z.string(),
    registeredAt: isoDate,
  }),
);
export type UserRegistered = { type: 'UserRegistered'; data: z.infer<typeof UserRegistered.schema> };

/** 'Change Photo' and display-name updates (spec §2 My Profile, §3 current user). */
export const ProfileUpdated = defineEvent(
  'ProfileUpdated',
  1,
  z.object({ userId: z.string(), name: z.string(), photoURL: z.string(), updatedAt: isoDate }),
);
export type ProfileUpdated = { type: 'ProfileUpdated'; data: z.infer<typeof ProfileUpdated.schema> };

/** The user became an admin (ADMIN_EMAILS at registration, the operator, or another admin). No demotion exists. */
export const AdminRoleGranted = defineEvent(
  'AdminRoleGranted',
  1,
  z.object({ userId: z.string(), reason: z.enum(['admin-emails', 'operator', 'admin', 'demo-data']), grantedAt: isoDate }),
);
export type AdminRoleGranted = { type: 'AdminRoleGranted'; data: z.infer<typeof AdminRoleGranted.schema> };

export type UserEvent = UserRegistered | ProfileUpdated | AdminRoleGranted;
