import { SITEMAP_MAX_URLS } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { QueryServiceConfig } from '../config.ts';
import { discoveryDocuments, sitemapFileNumber } from './documents.ts';
import type { DiscoveryStore } from './store.ts';

/** A store of `last` numbered pages, recording the ranges read. */
function storeOf(last: number, read: [number, number][] = []): DiscoveryStore {
  const none = () => Promise.reject(new Error('not read here'));
  return {
    lastPage: () => Promise.resolve(last),
    fileTimes: (files: number) => Promise.resolve(Array.from({ length: files }, (_, i) => new Date(Date.UTC(2026, 10, i + 1)))),
    urlElements: (after: number, upTo: number, origin: string) => {
      read.push([after, upTo]);
      return Promise.resolve(`<url><loc>${origin}/post/${after + 1}</loc><lastmod>2026-11-30T00:00:00Z</lastmod></url>`);
    },
    newestPosts: none,
    tagNamed: none,
    newestPostsTagged: none,
    shownPost: none,
    newestComments: none,
  };
}

describe('the sitemap at its default size', () => {
  const { SITEMAP_URLS_PER_FILE } = QueryServiceConfig.parse({
    DATABASE_URL: 'postgres://forum@localhost/forum',
    OIDC_ISSUER: 'https://id.example.com/realms/forum',
  });

  it('holds the protocol’s 50,000 addresses a file', () => {
    expect(SITEMAP_URLS_PER_FILE).toBe(50_000);
    expect(SITEMAP_MAX_URLS).toBe(50_000);
  });

  it('names ⌈pages / 50,000⌉ files, reads file n as pages (50,000·(n-1), 50,000·n], and has no file past the last', async () => {
    const read: [number, number][] = [];
    const documents = discoveryDocuments(storeOf(120_001, read), { publicUrl: 'https://forum.example.com', urlsPerFile: SITEMAP_URLS_PER_FILE });
    const index = await documents.sitemapIndex();
    expect(index.match(/<loc>[^<]+<\/loc>/g)).toEqual([1, 2, 3].map((n) => `<loc>https://forum.example.com/sitemaps/pages-${n}.xml</loc>`));
    expect(index).toContain('<lastmod>2026-11-03T00:00:00Z</lastmod></sitemap>');
    expect(await documents.sitemapFile(3)).toContain('<url><loc>https://forum.example.com/post/100001</loc><lastmod>2026-11-30T00:00:00Z</lastmod></url>');
    expect(read).toEqual([[100_000, 150_000]]);
    expect(await documents.sitemapFile(4)).toBeNull();
  });

  it('has no file at all while there is no page', async () => {
    const documents = discoveryDocuments(storeOf(0), { publicUrl: 'https://forum.example.com', urlsPerFile: SITEMAP_URLS_PER_FILE });
    expect(await documents.sitemapIndex()).not.toContain('<sitemap>');
    expect(await documents.sitemapFile(1)).toBeNull();
  });
});

describe('sitemapFileNumber', () => {
  it('reads pages-<n>.xml, n from 1 without leading zeros, and nothing else', () => {
    expect(['pages-1.xml', 'pages-20.xml', 'pages-1234567890.xml'].map(sitemapFileNumber)).toEqual([1, 20, 1234567890]);
    expect(['pages-0.xml', 'pages-01.xml', 'pages-1.xml.gz', 'pages-12345678901.xml', 'pages-.xml', 'x', ''].map(sitemapFileNumber)).toEqual(
      Array(7).fill(null),
    );
  });
});
