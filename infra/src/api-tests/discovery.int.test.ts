import { randomUUID } from 'node:crypto';
import {
  DELETED_USER_NAME,
  HEADER_MIN_POSITION,
  positionToken,
  postStream,
  SITEMAP_INDEX_PATH,
  tagFeedPath,
  commentsFeedPath,
  POSTS_FEED_PATH,
  type PostDetail,
  type PostsPage,
} from '@forum/contracts';
import { parseFeed } from '@rowanmanning/feed-parser';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';

/**
 * What search engines and feed readers are given (issue #46, docs/seo.md), through the whole forum:
 * the sitemap at a size that needs more than one file (SITEMAP_URLS_PER_FILE 3 here; the default of
 * 50,000 is held by the query side's unit test), the Atom feeds read by a feed parser and by a strict
 * XML 1.0 parser, hostile text among them, and robots.txt.
 */
const PER_FILE = 3;
let forum: TestForum;
let author: NewUser;
let admin: { id: string; token: string };
const posts: Record<string, { id: string; position: string }> = {};

const post = (title: string, tags: string[] = [], description = `${title}, told at length`) =>
  forum.call<{ id: string; position: string }>('POST', '/api/posts', { token: author.token, body: { title, description, tags }, expect: 201 });

beforeAll(async () => {
  forum = await startTestForum({ SITEMAP_URLS_PER_FILE: String(PER_FILE) });
  author = await forum.newUser('Heron Watcher');
  admin = await forum.demoAdmin();
  await forum.register(author.token);
  await forum.call('PATCH', `/api/users/membership/${author.email}`, { token: admin.token });
  for (const name of ['Herons', 'Egrets']) await forum.call('POST', '/api/admin/tags', { token: admin.token, body: { name }, expect: 201 });
  posts.commented = await post('A heron at dawn', ['Herons']);
  posts.deleted = await post('A heron deleted');
  posts.hidden = await post('A heron hidden', ['Herons']);
  posts.plain = await post('An egret at noon', ['Egrets']);
  await forum.call('POST', '/api/comments', { token: author.token, body: { postId: posts.commented.id, text: 'Seen **twice** since' }, expect: 201 });
  await forum.call('DELETE', `/api/my-posts/${posts.deleted.id}`, { token: author.token });
  await forum.call('PUT', `/api/admin/posts/${posts.hidden.id}/hide`, { token: admin.token, body: { reason: 'Off topic' } });
}, 90_000);
afterAll(() => forum?.stop());

interface Element {
  readonly name: string;
  readonly attributes: Record<string, string>;
  text: string;
}

/** The document's elements in order, each with its attributes and its own text; a strict XML 1.0 parser's error fails the test. */
function elementsOf(xml: string): Element[] {
  const parser = new SaxesParser({ xmlns: false });
  const elements: Element[] = [];
  const open: Element[] = [];
  parser.on('opentag', (tag) => {
    const element = { name: tag.name, attributes: tag.attributes as Record<string, string>, text: '' };
    elements.push(element);
    open.push(element);
  });
  parser.on('text', (text) => {
    const current = open.at(-1);
    if (current) current.text += text;
  });
  parser.on('closetag', () => open.pop());
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(xml).close();
  return elements;
}

/** A document that must answer 200 with `type`: its text (read after this test's writes). */
async function document(path: string, type: string): Promise<string> {
  const response = await forum.api(path);
  const body = await response.text();
  expect(response.status, `${path}: ${body}`).toBe(200);
  expect(response.headers.get('content-type')).toBe(`${type}; charset=utf-8`);
  return body;
}

const textsOf = (elements: readonly Element[], name: string) => elements.filter((e) => e.name === name).map((e) => e.text);
const toSecond = (iso: string) => iso.replace(/\.\d{3}Z$/, 'Z');

describe('the sitemap, at a size that needs more than one file', () => {
  it('names in its index as many files as the pages need; together they list every live post and tag page once, each file at most its size, with lastmod', async () => {
    const index = elementsOf(await document(SITEMAP_INDEX_PATH, 'application/xml'));
    expect(index[0]).toMatchObject({ name: 'sitemapindex', attributes: { xmlns: 'http://www.sitemaps.org/schemas/sitemap/0.9' } });
    const files = textsOf(index, 'loc');
    expect(files.length).toBeGreaterThan(1);
    expect(files).toEqual(files.map((_, i) => `${forum.url}/sitemaps/pages-${i + 1}.xml`));
    expect(textsOf(index, 'lastmod')).toHaveLength(files.length);

    const urls = new Map<string, string>();
    for (const file of files) {
      const elements = elementsOf(await document(new URL(file).pathname, 'application/xml'));
      expect(elements[0]?.name).toBe('urlset');
      const locs = textsOf(elements, 'loc');
      const lastmods = textsOf(elements, 'lastmod');
      expect(locs.length).toBeLessThanOrEqual(PER_FILE);
      expect(lastmods).toHaveLength(locs.length);
      locs.forEach((loc, i) => {
        expect(urls.has(loc), `${loc} twice`).toBe(false);
        expect(lastmods[i]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        urls.set(loc, lastmods[i]!);
      });
    }
    // every live post (the home page's total and its pinned ones) and every tag of the tag list
    const home = await forum.call<PostsPage>('GET', '/api/posts?page=1');
    const tags = await forum.call<string[]>('GET', '/api/tags');
    expect(urls.size).toBe(home.totalCount + (home.pinned?.length ?? 0) + tags.length);
    for (const tag of ['Herons', 'Egrets']) expect(urls.has(`${forum.url}/tags/${tag}`)).toBe(true);
    expect(urls.has(`${forum.url}/post/${posts.deleted!.id}`)).toBe(false);
    expect(urls.has(`${forum.url}/post/${posts.hidden!.id}`)).toBe(false);
    const plain = await forum.call<PostDetail>('GET', `/api/posts/${posts.plain!.id}`);
    expect(urls.get(`${forum.url}/post/${plain._id}`)).toBe(toSecond(plain.createdAt));
    // a comment moved its post's time on
    const commented = await forum.call<PostDetail>('GET', `/api/posts/${posts.commented!.id}`);
    expect(urls.get(`${forum.url}/post/${commented._id}`)! >= toSecond(commented.createdAt)).toBe(true);
  });

  it('answers 404, never an error, for a file past the last and any other name', async () => {
    const index = elementsOf(await document(SITEMAP_INDEX_PATH, 'application/xml'));
    const last = textsOf(index, 'loc').length;
    for (const name of [
      `pages-${last + 1}.xml`,
      'pages-0.xml',
      'pages-01.xml',
      'pages-1.xml.gz',
      'abc.xml',
      'pages-99999999999999999999999.xml',
      'pages-%00.xml',
      'pages--1.xml',
    ]) {
      const response = await forum.api(`/sitemaps/${name}`);
      expect(response.status, name).toBe(404);
    }
    // not the sitemap's: the web app's pages answer them (its 404 page)
    for (const path of ['/sitemaps/', '/sitemaps', '/sitemap.xml/1', '/sitemaps/pages-1.xml/x']) expect((await forum.api(path)).status, path).not.toBe(500);
  });

  it('carries the read side’s validators: a visitor asking again with If-None-Match gets 304', async () => {
    const first = await forum.api(SITEMAP_INDEX_PATH, { readYourWrites: false });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect((await forum.api(SITEMAP_INDEX_PATH, { readYourWrites: false, headers: { 'If-None-Match': etag! } })).status).toBe(304);
  });
});

describe('the feeds', () => {
  it('the newest posts: an Atom feed a feed parser reads, with absolute links, neither the hidden nor the deleted post', async () => {
    const xml = await document(POSTS_FEED_PATH, 'application/atom+xml');
    elementsOf(xml);
    const feed = parseFeed(xml);
    expect(feed.meta.type).toBe('atom');
    expect(feed.self).toBe(`${forum.url}${POSTS_FEED_PATH}`);
    expect(feed.url).toBe(`${forum.url}/`);
    const urls = feed.items.map((item) => item.url);
    expect(urls[0]).toBe(`${forum.url}/post/${posts.plain!.id}`);
    expect(urls).toContain(`${forum.url}/post/${posts.commented!.id}`);
    expect(urls).not.toContain(`${forum.url}/post/${posts.hidden!.id}`);
    expect(urls).not.toContain(`${forum.url}/post/${posts.deleted!.id}`);
    const item = feed.items[0]!;
    expect(item).toMatchObject({ id: `urn:uuid:${posts.plain!.id}`, title: 'An egret at noon', content: 'An egret at noon, told at length' });
    expect(item.authors.map((a) => a.name)).toEqual(['Heron Watcher']);
    expect(item.categories.map((c) => c.term)).toEqual(['Egrets']);
  });

  it('a tag’s (its name in any case), and 404 for a name no tag has', async () => {
    for (const name of ['Herons', 'herons']) {
      const feed = parseFeed(await document(tagFeedPath(name), 'application/atom+xml'));
      expect(feed.title).toBe('Forum: posts tagged Herons');
      expect(feed.url).toBe(`${forum.url}/tags/Herons`);
      // the hidden post had the tag too
      expect(feed.items.map((item) => item.url)).toEqual([`${forum.url}/post/${posts.commented!.id}`]);
    }
    // hostile names too: NUL, a control, a bidi override, spaces only (none can be a tag's)
    for (const path of [
      '/feeds/tags/Storks.xml',
      '/feeds/tags/Herons',
      '/feeds/tags/.xml',
      `/feeds/tags/${'x'.repeat(90)}.xml`,
      '/feeds/tags/%00.xml',
      '/feeds/tags/Her%00ons.xml',
      '/feeds/tags/%07.xml',
      '/feeds/tags/%E2%80%AEHerons.xml',
      '/feeds/tags/%20%20.xml',
    ])
      expect((await forum.api(path)).status, path).toBe(404);
    // a broken escape is the server's 400; a name longer than a path's part may be is no route of the feeds (the web app's 404 page)
    expect((await forum.api('/feeds/tags/%FF.xml')).status).toBe(400);
    expect((await forum.api(`/feeds/tags/${'x'.repeat(300)}.xml`)).status).not.toBe(500);
  });

  it('a post’s comments as plain text, without the hidden ones; 404 for a hidden, deleted or unknown post', async () => {
    const said = await forum.call<{ id: string }>('POST', '/api/comments', {
      token: author.token,
      body: { postId: posts.plain!.id, text: 'To hide' },
      expect: 201,
    });
    await forum.call('PUT', `/api/admin/comments/${said.id}/hide`, { token: admin.token, body: { reason: 'Off topic' } });
    const feed = parseFeed(await document(commentsFeedPath(posts.commented!.id), 'application/atom+xml'));
    expect(feed.title).toBe('Forum: comments on A heron at dawn');
    expect(feed.items.map((item) => item.content)).toEqual(['Seen twice since']);
    expect(feed.items[0]!.url).toMatch(new RegExp(`^${forum.url}/post/${posts.commented!.id}#comment-`));
    expect(parseFeed(await document(commentsFeedPath(posts.plain!.id), 'application/atom+xml')).items).toEqual([]);
    for (const id of [posts.hidden!.id, posts.deleted!.id, randomUUID(), 'not-an-id'])
      expect((await forum.api(`/feeds/posts/${id}/comments.xml`)).status, id).toBe(404);
  });

  it('shows an erased member’s posts and comments as the forum does: by Deleted user, their email nowhere', async () => {
    const leaver = await forum.newUser('Leaving Lapwing');
    await forum.register(leaver.token);
    const kept = await forum.call<{ id: string }>('POST', '/api/posts', {
      token: leaver.token,
      body: { title: 'Lapwings in March', description: 'A flock of forty', tags: [] },
      expect: 201,
    });
    await forum.call('POST', '/api/comments', { token: leaver.token, body: { postId: kept.id, text: 'And a heron' }, expect: 201 });
    await forum.call('DELETE', '/api/me', { token: leaver.token, body: { content: 'keep' } });
    const posts = await document(POSTS_FEED_PATH, 'application/atom+xml');
    const comments = await document(commentsFeedPath(kept.id), 'application/atom+xml');
    const entry = parseFeed(posts).items.find((item) => item.id === `urn:uuid:${kept.id}`)!;
    expect(entry.authors.map((a) => a.name)).toEqual([DELETED_USER_NAME]);
    expect(parseFeed(comments).items.map((item) => [item.title, item.authors[0]?.name])).toEqual([[`Comment by ${DELETED_USER_NAME}`, DELETED_USER_NAME]]);
    for (const xml of [posts, comments]) {
      expect(xml).not.toContain('Leaving Lapwing');
      expect(xml).not.toContain(leaver.email);
    }
  });

  // NUL and lone surrogates cannot reach the log (PostgreSQL's jsonb refuses them): xml.unit.test.ts holds them
  it('keeps a feed well-formed whatever a post holds: markup, entities, CDATA ends, controls, non-characters (written to the log as they came)', async () => {
    const hostile = `<script>alert("x")</script> & &amp; ]]> \u0001ctl\u001F\u000B \uFFFE\uFFFF end \u{1F426} bird`;
    const id = randomUUID();
    const metadata = { actorId: author.id, correlationId: randomUUID(), causationId: null, requestId: null, schemaVersion: 1 };
    const data = {
      postId: id,
      title: hostile,
      description: `**${hostile}**`,
      tags: [hostile],
      authorId: author.id,
      authorName: `${hostile} name`,
      authorEmail: author.email,
      authorPhoto: '',
      createdAt: new Date().toISOString(),
    };
    const { lastPosition } = await forum.store.append([
      { streamId: postStream(id), expectedVersion: 'no_stream', events: [{ type: 'PostCreated', data, metadata }] },
    ]);
    const response = await forum.api(POSTS_FEED_PATH, { headers: { [HEADER_MIN_POSITION]: positionToken(lastPosition) } });
    const xml = await response.text();
    // what a strict XML parser reads is the text as written, less what XML 1.0 cannot hold
    const shown = '<script>alert("x")</script> & &amp; ]]> ctl  end \u{1F426} bird';
    const elements = elementsOf(xml);
    expect(textsOf(elements, 'title')).toContain(shown);
    // the description is Markdown: its plain text (the entity is read as the character it names)
    expect(textsOf(elements, 'content')).toContain('<script>alert("x")</script> & & ]]> ctl  end \u{1F426} bird');
    expect(textsOf(elements, 'name')).toContain(`${shown} name`);
    expect(elements.filter((e) => e.name === 'category').map((e) => e.attributes.term)).toContain(shown);
    // and a feed reader shows it as text (this one decodes entities in text once more, as browsers' readers do)
    const item = parseFeed(xml).items.find((i) => i.id === `urn:uuid:${id}`)!;
    expect(item.title).toContain('<script>alert("x")</script>');
    expect(item.content).toContain('\u{1F426} bird');
    expect(xml).not.toContain('<script>');
  });
});

describe('robots.txt', () => {
  it('names the sitemap by its absolute address and keeps crawlers out of the console, the API, sign-in, the search and members’ pages', async () => {
    const response = await forum.api('/robots.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const lines = (await response.text()).split('\n');
    expect(lines).toContain(`Sitemap: ${forum.url}/sitemap.xml`);
    expect(lines).toEqual(
      expect.arrayContaining(['User-agent: *', 'Disallow: /admin', 'Disallow: /api/', 'Disallow: /search', 'Disallow: /realms/', 'Disallow: /dashboard']),
    );
    expect(lines.filter((line) => /^Disallow: \/(sitemap|feeds|post|tags)/.test(line))).toEqual([]);
  });
});
