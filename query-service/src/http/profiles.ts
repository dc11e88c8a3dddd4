import { HandleSuggestionsQuery, PublicProfileParams, PublicProfileQuery, HandleSuggestions, PublicProfile } from '@forum/contracts';
import { NotFoundError } from '@forum/platform';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { CommunityStore } from '../store/community.ts';
import type { UsersStore } from '../store/users.ts';
import { signedInOnly } from './access.ts';
import { listItem } from './posts.ts';

/** Members as others see them: public profiles (docs/notifications.md#public-profiles) and the editor's @ autocomplete. */
export function profileRoutes(community: CommunityStore, users: UsersStore): FastifyPluginCallbackZod {
  return (api, _options, done) => {
    api.get(
      '/users/handles',
      { schema: { answers: { 200: { body: HandleSuggestions } }, querystring: HandleSuggestionsQuery }, preValidation: signedInOnly },
      async (request) => {
        const rows = await users.handleSuggestions(request.query.prefix);
        const body: HandleSuggestions = { users: rows.map((row) => ({ _id: row.id, handle: row.handle, name: row.name, photoURL: row.photo_url })) };
        return body;
      },
    );

    // a public read like the leaderboard: no email, nothing of the viewer's, so one kept answer serves everyone
    api.get(
      '/users/:id',
      {
        schema: { answers: { 200: { body: PublicProfile } }, errors: ['NOT_FOUND'], params: PublicProfileParams, querystring: PublicProfileQuery },
        config: { publicRead: true, sharedBody: true },
      },
      async (request) => {
        const user = await community.publicProfile(request.params.id);
        if (!user) throw new NotFoundError('No such user');
        const posts = await community.postsOfAuthor(user.id, request.query.page);
        const body: PublicProfile = {
          user: {
            _id: user.id,
            name: user.name,
            handle: user.handle,
            photoURL: user.photo_url,
            registeredAt: user.registered_at.toISOString(),
            role: user.role,
            isMember: user.is_member,
            badge: user.is_member ? 'Gold' : 'Bronze',
          },
          stats: {
            posts: Number(user.posts),
            comments: Number(user.comments),
            commentsReceived: Number(user.comments_received),
            upVotes: Number(user.up_votes),
          },
          posts: posts.map(listItem),
          totalCount: Number(user.posts),
        };
        return body;
      },
    );
    done();
  };
}
