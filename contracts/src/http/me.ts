import { z } from 'zod';
import { DISPLAY_NAME_MAX, ERASED_CONTENT_CHOICES, ROLES } from '../constants.ts';
import { photoUrl, text, type TextRule } from '../text-policy.ts';
import { handleText } from './notifications.ts';

/** GET /api/me: the caller's forum profile. */
export const Me = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  photoURL: z.string(),
  /** The name @mentions use (docs/notifications.md#handles); null until the forum has given the member one. */
  handle: z.string().nullable(),
  role: z.enum(ROLES),
  isMember: z.boolean(),
  registeredAt: z.string(),
  /** The suspension in force (issue #43): why, and until when (null: until staff lift it); null when none. */
  suspension: z.object({ reason: z.string(), until: z.string().nullable() }).nullable().default(null),
});
export type Me = z.infer<typeof Me>;

/** A display name's rule: the realm's register form and account store, PATCH /api/me. */
export const displayNameRule = (label = 'Display name', required = `${label} must not be empty`): TextRule => ({
  kind: 'name',
  label,
  max: DISPLAY_NAME_MAX,
  required,
});
/** A display name as PATCH /api/me checks it ('Change Photo' counts by it). */
export const DISPLAY_NAME_RULE = displayNameRule();

/**
 * PATCH /api/me on a forum served at `forumOrigin`: the display name, the photo ('Change
 * Photo'; '' removes it) and the handle (409 HANDLE_TAKEN when another member has it), at least one of them. The photo may not point at the forum itself.
 */
export const updateMeRequest = (forumOrigin: string) =>
  z
    .strictObject({
      displayName: text(DISPLAY_NAME_RULE).optional(),
      photoURL: photoUrl(forumOrigin, { allowEmpty: true }).optional(),
      handle: handleText().optional(),
    })
    .refine((body) => body.displayName !== undefined || body.photoURL !== undefined || body.handle !== undefined, {
      message: 'Send displayName, photoURL or handle',
      path: ['_'],
    });
export type UpdateMeRequest = z.infer<ReturnType<typeof updateMeRequest>>;

/**
 * DELETE /api/me and DELETE /api/admin/users/:userId: erase the account. `content`: whether the
 * text of the member's posts and comments stays (shown by 'Deleted user') or goes with it.
 */
export const EraseAccountRequest = z.strictObject({
  content: z.enum(ERASED_CONTENT_CHOICES, { error: "content must be 'keep' or 'erase'" }),
});
export type EraseAccountRequest = z.infer<typeof EraseAccountRequest>;
