import { FIXED_NOW, uuidOf } from '@forum/platform/testing';

/**
 * A member and her posts for the tests of personal data in the log (sealing.int.test.ts over
 * PostgreSQL, memory/erasure.unit.test.ts in memory), and the texts of hers no stored event may
 * hold in plain.
 */
export const ann = { userId: 'u-ann', email: 'ann.secret@forum.test', name: 'Ann Zebrafinch', photoURL: 'https://img.test/ann-face.png' };

export const annPost = (n: number) => ({
  postId: uuidOf(n),
  title: `Ann's private title ${n}`,
  description: `Ann's private description ${n}`,
  tags: ['General'],
  authorId: ann.userId,
  authorName: ann.name,
  authorEmail: ann.email,
  authorPhoto: ann.photoURL,
  createdAt: FIXED_NOW,
});

export const PLAINTEXT = [ann.email, 'Zebrafinch', 'ann-face', 'private title', 'private description'];
