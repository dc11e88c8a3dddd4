import { ATOM_TYPE, FEEDS_PATH, POSTS_FEED_PATH, SITEMAP_INDEX_PATH, SITEMAPS_PATH, tagName } from '@forum/contracts';
import { cancelWhenClientLeavesHook, NotFoundError, type Knex } from '@forum/platform';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { CheckpointWatcher } from '../store/checkpoint-watcher.ts';
import { minPosition } from '../http/consistency.ts';
import { createVisitorCache } from '../http/visitor-cache.ts';
import { discoveryDocuments, sitemapFileNumber, type DiscoverySettings } from './documents.ts';
import { createDiscoveryStore } from './store.ts';

/** The paths of the documents, for a gateway that forwards them to a query-service (the replicated layout). */
export const DISCOVERY_PATHS = [SITEMAP_INDEX_PATH, `${SITEMAPS_PATH}/*`, `${FEEDS_PATH}/*`] as const;

/** A sitemap file of 50,000 addresses is some 6 MB: answers larger than this are not kept in memory (they still carry validators). */
const KEPT_BODY_MAX = 512 * 1024;
/** The kept answers in all (characters): feeds of long posts under many query strings stay within it. */
const KEPT_MAX = 32 * 1024 * 1024;

export interface DiscoveryDeps extends DiscoverySettings {
  readonly db: Knex;
  readonly watcher: CheckpointWatcher;
  /** Visitors' answers kept in memory (VISITOR_CACHE_ENTRIES; 0: none, no ETags). */
  readonly visitorCacheEntries: number;
  /** Longest wait for X-Min-Position (MIN_POSITION_WAIT_MS). */
  readonly maxWaitMs: number;
}

const SITEMAP_TYPE = 'application/xml; charset=utf-8';
const FEED_TYPE = `${ATOM_TYPE}; charset=utf-8`;
const PostId = z.string().uuid();
/** A tag's name as the forum's rule takes it (its length, no NUL, controls or invisible marks): any other names no tag. */
const TagName = tagName('Tag');

/**
 * The documents for search engines and feed readers (docs/seo.md), at the forum's top level (register
 * without a prefix): the sitemap index, its files, and the Atom feeds of the newest posts, of a tag's
 * and of a post's comments. Public reads from the read models, answered from the visitors' memory as
 * the API's public reads are (visitor-cache.ts): ETag of the read side's version, `no-cache`, 304 while
 * nothing changed. Any other name under their paths is 404, never an error.
 */
export function discoveryRoutes(deps: DiscoveryDeps): FastifyPluginAsync {
  return (instance) => {
    const documents = discoveryDocuments(createDiscoveryStore(deps.db), deps);
    const cache = createVisitorCache(deps.watcher, { maxEntries: deps.visitorCacheEntries, maxBodyLength: KEPT_BODY_MAX, maxLength: KEPT_MAX });
    instance.addHook('onRequest', cache.visitors);
    instance.addHook('onRequest', cancelWhenClientLeavesHook);
    // read-your-writes, as the API's reads: a reader that passes a command's position sees its effect
    instance.addHook('onRequest', minPosition(deps.watcher, deps.maxWaitMs));
    instance.addHook('onSend', cache.keep);
    const publicRead = { config: { publicRead: true } };
    const send = (reply: FastifyReply, type: string, body: string | null, what: string) => {
      if (body === null) throw new NotFoundError(`No such ${what}`);
      return reply.type(type).send(body);
    };

    instance.get(SITEMAP_INDEX_PATH, publicRead, async (_request, reply) => send(reply, SITEMAP_TYPE, await documents.sitemapIndex(), 'sitemap'));
    instance.get<{ Params: { name: string } }>(`${SITEMAPS_PATH}/:name`, publicRead, async (request, reply) => {
      const file = sitemapFileNumber(request.params.name);
      return send(reply, SITEMAP_TYPE, file === null ? null : await documents.sitemapFile(file), 'sitemap file');
    });
    instance.get(POSTS_FEED_PATH, publicRead, async (_request, reply) => send(reply, FEED_TYPE, await documents.postsFeed(), 'feed'));
    instance.get<{ Params: { name: string } }>(`${FEEDS_PATH}/tags/:name`, publicRead, async (request, reply) => {
      const { name } = request.params;
      const tag = name.endsWith('.xml') ? TagName.safeParse(name.slice(0, -'.xml'.length)) : null;
      return send(reply, FEED_TYPE, tag?.success ? await documents.tagFeed(tag.data) : null, 'feed');
    });
    instance.get<{ Params: { id: string } }>(`${FEEDS_PATH}/posts/:id/comments.xml`, publicRead, async (request, reply) => {
      const { id } = request.params;
      return send(reply, FEED_TYPE, PostId.safeParse(id).success ? await documents.commentsFeed(id) : null, 'feed');
    });
    return Promise.resolve();
  };
}
