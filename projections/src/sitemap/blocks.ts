/**
 * Pages per row of the sitemap's `blocks` (projection.ts): the latest time anything changed among
 * that many pages. A sitemap file whose size is a multiple of it reads its time from its blocks alone.
 */
export const SITEMAP_BLOCK = 1000;
