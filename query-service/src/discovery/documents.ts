import { ATOM_TYPE, commentsFeedPath, POSTS_FEED_PATH, postPagePath, SITEMAP_MAX_URLS, sitemapFilePath, tagFeedPath, tagPagePath } from '@forum/contracts';
import { markdownToPlainText } from '@forum/contracts/markdown';
import type { DiscoveryStore, FeedComment, FeedPost } from './store.ts';
import { XML_DECLARATION, xmlText, xmlTime } from './xml.ts';

/** The forum's name in the feeds' titles, as its pages' title says it. */
const FORUM_NAME = 'Forum';
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const ATOM_NS = 'http://www.w3.org/2005/Atom';

export interface DiscoverySettings {
  /** Where browsers reach the forum (PUBLIC_URL, without a trailing slash): every address in the documents is absolute. */
  readonly publicUrl: string;
  /** URLs per sitemap file (SITEMAP_URLS_PER_FILE; at most SITEMAP_MAX_URLS). */
  readonly urlsPerFile: number;
}

/** A file of the sitemap: `/sitemaps/pages-<n>.xml`, n from 1 without leading zeros (any other name is no file). */
export function sitemapFileNumber(name: string): number | null {
  const match = /^pages-([1-9]\d{0,9})\.xml$/.exec(name);
  return match ? Number(match[1]) : null;
}

/** The documents, written from the read models: null where there is nothing at the address (404). */
export function discoveryDocuments(store: DiscoveryStore, settings: DiscoverySettings) {
  const { publicUrl, urlsPerFile } = settings;
  const absolute = (path: string) => xmlText(`${publicUrl}${path}`);
  // the sitemap protocol's limit on an index too: past it (only with a tiny SITEMAP_URLS_PER_FILE) the first files
  const fileCount = (last: number) => Math.min(Math.ceil(last / urlsPerFile), SITEMAP_MAX_URLS);

  return {
    /** The sitemap index: one `<sitemap>` per file, with the time it last changed. */
    async sitemapIndex(): Promise<string> {
      const files = fileCount(await store.lastPage());
      const times = await store.fileTimes(files, urlsPerFile);
      const entries = times.map((time, i) => {
        const lastmod = time ? `<lastmod>${xmlTime(time)}</lastmod>` : '';
        return `<sitemap><loc>${absolute(sitemapFilePath(i + 1))}</loc>${lastmod}</sitemap>\n`;
      });
      return `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NS}">\n${entries.join('')}</sitemapindex>\n`;
    },

    /** File `file` of the sitemap, or null past the last. */
    async sitemapFile(file: number): Promise<string | null> {
      if (file > fileCount(await store.lastPage())) return null;
      const urls = await store.urlElements((file - 1) * urlsPerFile, file * urlsPerFile, xmlText(publicUrl));
      const body = `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NS}">\n${urls}${urls ? '\n' : ''}`;
      return `${body}</urlset>\n`;
    },

    /** The newest posts of the forum. */
    async postsFeed(): Promise<string> {
      const posts = await store.newestPosts();
      return feed({ self: POSTS_FEED_PATH, page: '/', title: `${FORUM_NAME}: newest posts`, since: null, entries: posts.map(postEntry) }, absolute);
    },

    /** The newest posts with a tag of the tag list, or null when no tag has that name. */
    async tagFeed(name: string): Promise<string | null> {
      const tag = await store.tagNamed(name);
      if (!tag) return null;
      const posts = await store.newestPostsTagged(tag.name);
      return feed(
        {
          self: tagFeedPath(tag.name),
          page: tagPagePath(tag.name),
          title: `${FORUM_NAME}: posts tagged ${tag.name}`,
          since: tag.created_at,
          entries: posts.map(postEntry),
        },
        absolute,
      );
    },

    /** A shown post's newest comments, or null when the post is not there or hidden. */
    async commentsFeed(postId: string): Promise<string | null> {
      const post = await store.shownPost(postId);
      if (!post) return null;
      const comments = await store.newestComments(postId);
      return feed(
        {
          self: commentsFeedPath(postId),
          page: postPagePath(postId),
          title: `${FORUM_NAME}: comments on ${post.title}`,
          since: post.created_at,
          entries: comments.map((comment) => commentEntry(postId, comment)),
        },
        absolute,
      );
    },
  };
}

interface Entry {
  readonly id: string;
  readonly title: string;
  readonly page: string;
  readonly author: string;
  readonly published: Date;
  readonly updated: Date;
  readonly categories: readonly string[];
  /** Plain text: the member's Markdown as the forum's one parser reads it, without markup (no HTML reaches a reader). */
  readonly text: string;
}

const postEntry = (post: FeedPost): Entry => ({
  id: post.id,
  title: post.title,
  page: postPagePath(post.id),
  author: post.author_name,
  published: post.created_at,
  updated: post.edited_at ?? post.created_at,
  categories: post.tags,
  text: markdownToPlainText(post.description),
});

const commentEntry = (postId: string, comment: FeedComment): Entry => ({
  id: comment.id,
  title: `Comment by ${comment.author_name}`,
  page: `${postPagePath(postId)}#comment-${comment.id}`,
  author: comment.author_name,
  published: comment.created_at,
  updated: comment.edited_at ?? comment.created_at,
  categories: [],
  text: markdownToPlainText(comment.text),
});

interface Feed {
  /** The feed's own path: its id and rel="self". */
  readonly self: string;
  /** The page it follows. */
  readonly page: string;
  readonly title: string;
  /** When the feed began (its `updated` while it has no entry). */
  readonly since: Date | null;
  readonly entries: readonly Entry[];
}

/** An Atom feed (RFC 4287): every text escaped (xmlText), every address absolute. */
function feed({ self, page, title, since, entries }: Feed, absolute: (path: string) => string): string {
  const newest = entries.reduce<Date | null>((latest, entry) => (latest && latest >= entry.updated ? latest : entry.updated), since);
  const lines = [
    `<feed xmlns="${ATOM_NS}">`,
    `<id>${absolute(self)}</id>`,
    `<title type="text">${xmlText(title)}</title>`,
    `<updated>${xmlTime(newest ?? new Date(0))}</updated>`,
    `<link rel="self" type="${ATOM_TYPE}" href="${absolute(self)}"/>`,
    `<link rel="alternate" type="text/html" href="${absolute(page)}"/>`,
    `<generator>${FORUM_NAME}</generator>`,
  ];
  for (const entry of entries) {
    lines.push(
      '<entry>',
      // a post's or comment's id: its page's address may change with the forum's, its id never
      `<id>urn:uuid:${xmlText(entry.id)}</id>`,
      `<title type="text">${xmlText(entry.title)}</title>`,
      `<link rel="alternate" type="text/html" href="${absolute(entry.page)}"/>`,
      `<published>${xmlTime(entry.published)}</published>`,
      `<updated>${xmlTime(entry.updated)}</updated>`,
      `<author><name>${xmlText(entry.author)}</name></author>`,
      ...entry.categories.map((category) => `<category term="${xmlText(category)}"/>`),
      `<content type="text">${xmlText(entry.text)}</content>`,
      '</entry>',
    );
  }
  lines.push('</feed>');
  return `${XML_DECLARATION}${lines.join('\n')}\n`;
}
