// ── what search engines and feed readers are given (issue #46, docs/seo.md) ──────────────────────

/** URLs of one sitemap file at most: the sitemap protocol's own limit (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;

/** The sitemap index: it names every file of the sitemap (`sitemapFilePath`). */
export const SITEMAP_INDEX_PATH = '/sitemap.xml';

/** The sitemap's files, numbered from 1: the public pages in the order they were first published. */
export const SITEMAPS_PATH = '/sitemaps';
export const sitemapFilePath = (file: number) => `${SITEMAPS_PATH}/pages-${file}.xml`;

/** A profile's path in forum-web: where author names and mentions link. */
export const profilePath = (userId: string) => `/u/${encodeURIComponent(userId)}`;

/** The Atom feeds. */
export const FEEDS_PATH = '/feeds';
/** The newest posts of the forum. */
export const POSTS_FEED_PATH = `${FEEDS_PATH}/posts.xml`;
/** The newest posts with a tag (the tag's name as the tag page's address carries it). */
export const tagFeedPath = (tag: string) => `${FEEDS_PATH}/tags/${encodeURIComponent(tag)}.xml`;
/** A post's newest comments. */
export const commentsFeedPath = (postId: string) => `${FEEDS_PATH}/posts/${encodeURIComponent(postId)}/comments.xml`;

/** Entries of a feed: its newest posts or comments. */
export const FEED_ENTRIES = 20;

/** The media type of the feeds (RFC 4287), as answers and `<link rel="alternate">` name it. */
export const ATOM_TYPE = 'application/atom+xml';

/** forum-web's public pages, whose absolute addresses the sitemap and the feeds give. */
export const postPagePath = (postId: string) => `/post/${encodeURIComponent(postId)}`;
export const tagPagePath = (tag: string) => `/tags/${encodeURIComponent(tag)}`;

/** robots.txt, served by the gateway. */
export const ROBOTS_PATH = '/robots.txt';
