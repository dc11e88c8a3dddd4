import { z } from 'zod';
import { ERASED_CONTENT_CHOICES } from '../constants.ts';

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** GET /api/me: the caller's forum profile. */
export const Me = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  photoURL: z.string(),
  role: z.enum(ROLES),
  isMember: z.boolean(),
  registeredAt: z.string(),
});
export type Me = z.infer<typeof Me>;

const PHOTO_URL_MAX = 2048;
const DISPLAY_NAME_MAX = 100;

/** PATCH /api/me: the display name and the photo ('Change Photo'); at least one of them. */
export const UpdateMeRequest = z
  .object({
    displayName: z.string().trim().min(1, 'Display name must not be empty').max(DISPLAY_NAME_MAX, `Display name must be at most ${DISPLAY_NAME_MAX} characters`).optional(),
    photoURL: z
      .union([z.literal(''), z.string().trim().max(PHOTO_URL_MAX).url('Photo URL must be a http(s) URL').refine((u) => /^https?:\/\//i.test(u), 'Photo URL must be a http(s) URL')])
      .optional(),
  })
  .refine((body) => body.displayName !== undefined || body.photoURL !== undefined, { message: 'Send displayName, photoURL or both', path: ['_'] });
export type UpdateMeRequest = z.infer<typeof UpdateMeRequest>;

/**
 * DELETE /api/me and DELETE /api/admin/users/:userId: erase the account. `content`: whether the
 * text of the member's posts and comments stays (shown by 'Deleted user') or goes with it.
 */
export const EraseAccountRequest = z.strictObject({
  content: z.enum(ERASED_CONTENT_CHOICES, { error: "content must be 'keep' or 'erase'" }),
});
export type EraseAccountRequest = z.infer<typeof EraseAccountRequest>;
