import { HEADER_TOTAL_COUNT, TagNames } from '@forum/contracts';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { TagsStore } from '../store/posts.ts';
import { totalCountHeaders } from './range.ts';

export function tagRoutes(tags: TagsStore): FastifyPluginCallbackZod {
  return (api, _options, done) => {
    /** The spec's tag list: its first TAG_LIST_MAX names, by name; all of them counted in X-Total-Count. */
    api.get(
      '/tags',
      { schema: { answers: { 200: { body: TagNames, headers: [HEADER_TOTAL_COUNT] } } }, config: { publicRead: true, sharedBody: true } },
      async (_request, reply) => {
        const { names, total } = await tags.names();
        return reply.headers(totalCountHeaders(total)).send(names);
      },
    );
    done();
  };
}
