import type { NewUser, TestForum } from './forum.ts';

/** What a command answers: the new stream's id and the position a read can wait for. */
export interface Written {
  id: string;
  position: string;
}

export interface PostFields {
  title?: string;
  description?: string;
  tags?: string[];
}

/**
 * The set-ups the API tests share, each a call that must succeed. `forum` is asked for on each
 * call, so a test file can take these at its top, before its beforeAll has started the forum.
 */
export function given(forum: () => TestForum) {
  return {
    /** A new user registered with the forum (as the apps register after sign-in), so that later "appends nothing" counts are not disturbed by their registration. */
    async registeredUser(name: string): Promise<NewUser> {
      const user = await forum().newUser(name);
      await forum().register(user.token);
      return user;
    },
    /** A post by the holder of `token`. */
    createPost: (token: string, fields: PostFields = {}) =>
      forum().call<Written>('POST', '/api/posts', { token, body: { title: 'A post', description: 'Some text', tags: [], ...fields }, expect: 201 }),
    /** A comment on `postId` by the holder of `token`. */
    createComment: (token: string, postId: string, text = 'A comment') =>
      forum().call<Written>('POST', '/api/comments', { token, body: { postId, text }, expect: 201 }),
  };
}
