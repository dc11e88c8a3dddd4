import { get } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';

/**
 * forum-web's public pages as HTML before any script runs (issue #46 item 1, docs/seo.md), through
 * the whole forum over HTTP (needs `npm run build:web`): a post's page holds its text, its first
 * comments, its head tags and its JSON-LD, hostile text escaped; what is not there is 404 and a
 * deleted post 410, each with the forum's page; a kept page goes out gzipped from its parts compressed once
 * and gives way to the next version of the read side.
 */
const HOSTILE = '</script><script>alert(1)</script> & "quoted"';
let forum: TestForum;
let author: NewUser;
let postId: string;
let deletedId: string;

beforeAll(async () => {
  forum = await startTestForum();
  author = await forum.newUser('Page Writer');
  const admin = await forum.demoAdmin();
  await forum.register(author.token);
  await forum.call('PATCH', `/api/users/membership/${author.email}`, { token: admin.token });
  await forum.call('POST', '/api/admin/tags', { token: admin.token, body: { name: 'Kestrels' }, expect: 201 });
  const created = await forum.call<{ id: string }>('POST', '/api/posts', {
    token: author.token,
    body: { title: `Kestrels hovering ${HOSTILE}`, description: `They **hover** into the wind. ${HOSTILE}`, tags: ['Kestrels'] },
    expect: 201,
  });
  postId = created.id;
  await forum.call('POST', '/api/comments', { token: author.token, body: { postId, text: `A first comment ${HOSTILE}` }, expect: 201 });
  deletedId = (
    await forum.call<{ id: string }>('POST', '/api/posts', { token: author.token, body: { title: 'Soon gone', description: 'Gone soon' }, expect: 201 })
  ).id;
  await forum.call('DELETE', `/api/my-posts/${deletedId}`, { token: author.token });
  // the read side has it all (the page's reads are a visitor's, without the test's position)
  await forum.call('GET', `/api/posts/${postId}/comments`);
  await forum.call('GET', `/api/posts/${deletedId}`, { expect: 410 });
}, 90_000);
afterAll(() => forum?.stop());

const page = async (path: string) => {
  const answer = await fetch(`${forum.url}${path}`);
  return {
    status: answer.status,
    csp: answer.headers.get('content-security-policy') ?? '',
    type: answer.headers.get('content-type'),
    html: await answer.text(),
  };
};
/** The answer's body as it came over the wire (fetch would decompress it). */
const rawBody = (url: string, headers: Record<string, string>) =>
  new Promise<Buffer>((resolve, reject) => {
    get(url, { headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => resolve(Buffer.concat(chunks)));
      answer.on('error', reject);
    }).on('error', reject);
  });
const meta = (html: string, attribute: 'name' | 'property', name: string) => new RegExp(`<meta ${attribute}="${name}" content="([^"]*)"`).exec(html)?.[1];
const jsonLdOf = (html: string) => {
  const found = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html);
  return found ? (JSON.parse(found[1]!) as Record<string, unknown>) : undefined;
};
const unescaped = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');

describe('a post’s page', () => {
  it('holds the post, its first comments, its head tags and its JSON-LD before any script runs', async () => {
    const { status, type, html, csp } = await page(`/post/${postId}`);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/html/);
    const root = html.slice(html.indexOf('<div id="root">'));
    expect(root).toContain('They <strong>hover</strong> into the wind.');
    expect(root).toContain('A first comment');
    expect(root).toContain('Page Writer');
    // hostile text is text: no script element is opened by it anywhere in the document
    expect(html).not.toContain('<script>alert(1)');
    expect(html.match(/<script\b[^>]*>/g)?.filter((tag) => !/ src=| type="application\/(ld\+)?json"/.test(tag))).toEqual([]);

    const title = `Kestrels hovering ${HOSTILE}`;
    expect(unescaped(/<title>([^<]*)<\/title>/.exec(html)![1]!)).toBe(`${title} · Forum`);
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(/<link rel="canonical" href="([^"]*)"/.exec(html)?.[1]).toBe(`${forum.url}/post/${postId}`);
    expect(unescaped(meta(html, 'property', 'og:title')!)).toBe(title);
    expect(meta(html, 'property', 'og:type')).toBe('article');
    expect(meta(html, 'property', 'og:url')).toBe(`${forum.url}/post/${postId}`);
    expect(meta(html, 'name', 'twitter:card')).toBe('summary');
    expect(unescaped(meta(html, 'name', 'description')!)).toContain('They hover into the wind.');

    const ld = jsonLdOf(html)!;
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'DiscussionForumPosting',
      headline: title,
      url: `${forum.url}/post/${postId}`,
      author: { '@type': 'Person', name: 'Page Writer', url: expect.stringMatching(new RegExp(`^${forum.url}/u/`)) as unknown },
      interactionStatistic: [
        { '@type': 'InteractionCounter', interactionType: 'https://schema.org/LikeAction', userInteractionCount: 0 },
        { '@type': 'InteractionCounter', interactionType: 'https://schema.org/CommentAction', userInteractionCount: 1 },
      ],
    });
    expect(ld.text).toBe(`They hover into the wind. ${HOSTILE}`);
    expect(ld.datePublished).toEqual(expect.any(String));
    expect(ld.dateModified).toEqual(expect.any(String));
    expect(ld.comment).toEqual([
      expect.objectContaining({ '@type': 'Comment', text: `A first comment ${HOSTILE}`, author: expect.objectContaining({ name: 'Page Writer' }) as unknown }),
    ]);

    // the CSP: scripts are files; styles by the answer's nonce, and the markup's style attributes by their hashes only
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain('unsafe-inline');
    expect(html).toContain(`<style data-emotion="css `);
    expect(html).toContain(`nonce="${nonce}"`);
    expect(html).not.toContain('forum-csp-nonce-placeholder');
  });

  it('is kept in memory until the read side moves, each answer with a nonce of its own', async () => {
    const first = await page(`/post/${postId}`);
    const second = await page(`/post/${postId}`);
    expect(second.csp).not.toBe(first.csp);
    const withoutNonce = (html: string) => html.replace(/nonce="[^"]*"/g, '');
    expect(withoutNonce(second.html)).toBe(withoutNonce(first.html));
    // kept, it goes out as gzip made from its parts compressed once: the same page, this answer's nonce in it
    const kept = await fetch(`${forum.url}/post/${postId}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(kept.headers.get('content-encoding')).toBe('gzip');
    expect(kept.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    const keptHtml = await kept.text();
    const keptNonce = /'nonce-([^']+)'/.exec(kept.headers.get('content-security-policy') ?? '')?.[1];
    expect(keptHtml).toContain(`nonce="${keptNonce}"`);
    expect(withoutNonce(keptHtml)).toBe(withoutNonce(first.html));
    // its bytes are those parts: each ends on a full flush (an empty stored block, 00 00 FF FF), where compressing the answer anew has none
    for (const acceptEncoding of ['gzip', 'GZIP', 'br;q=1, gzip;q=0.5']) {
      const bytes = await rawBody(`${forum.url}/post/${postId}`, { 'accept-encoding': acceptEncoding });
      expect(bytes.includes(Buffer.from([0x00, 0x00, 0xff, 0xff])), acceptEncoding).toBe(true);
      expect(gunzipSync(bytes).toString('utf8')).toContain('Kestrels hovering');
    }
    const plain = await fetch(`${forum.url}/post/${postId}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(withoutNonce(await plain.text())).toBe(withoutNonce(first.html));
    await forum.call('POST', '/api/comments', { token: author.token, body: { postId, text: 'A second comment, later' }, expect: 201 });
    await forum.call('GET', `/api/posts/${postId}/comments`);
    expect((await page(`/post/${postId}`)).html).toContain('A second comment, later');
  });

  it('is 410 with the forum’s page when the post was deleted, as its read is', async () => {
    const { status, html } = await page(`/post/${deletedId}`);
    expect(status).toBe(410);
    expect(html).toContain('Post deleted');
    expect(html).toContain('Back to Home');
    expect((await forum.api(`/api/posts/${deletedId}`)).status).toBe(410);
  });

  it('is 404 with the forum’s page when there is no such post, or the id cannot be one', async () => {
    for (const path of ['/post/3e06aacc-67fc-4d09-87a1-4d80c0885730', '/post/not-an-id']) {
      const { status, html } = await page(path);
      expect(status, path).toBe(404);
      expect(html).toContain('Post not found');
      expect(html).toContain('Back to Home');
    }
  });
});

describe('the other public pages', () => {
  it('home, a tag and a profile hold their content and head tags', async () => {
    const home = await page('/');
    expect(home.status).toBe(200);
    expect(home.html).toContain('Welcome to the Forum');
    expect(home.html).toContain('Kestrels hovering');
    expect(/<link rel="canonical" href="([^"]*)"/.exec(home.html)?.[1]).toBe(`${forum.url}/`);

    const tag = await page('/tags/kestrels');
    expect(tag.status).toBe(200);
    expect(tag.html).toContain('Kestrels hovering');
    expect(unescaped(/<title>([^<]*)<\/title>/.exec(tag.html)![1]!)).toBe('#Kestrels · Forum');
    expect(/<link rel="canonical" href="([^"]*)"/.exec(tag.html)?.[1]).toBe(`${forum.url}/tags/Kestrels`);

    const me = await forum.call<{ _id: string }>('GET', '/api/me', { token: author.token });
    const profile = await page(`/u/${me._id}`);
    expect(profile.status).toBe(200);
    expect(profile.html).toContain('Page Writer');
    expect(profile.html).toContain('Kestrels hovering');
    expect(unescaped(/<title>([^<]*)<\/title>/.exec(profile.html)![1]!)).toBe('Page Writer · Forum');
  });

  it('a later page of a list names itself as canonical (its posts are not page 1’s) and in its title; defaults and other parameters are left out', async () => {
    const me = await forum.call<{ _id: string }>('GET', '/api/me', { token: author.token });
    const canonical = async (path: string) => unescaped(/<link rel="canonical" href="([^"]*)"/.exec((await page(path)).html)?.[1] ?? '');
    expect(await canonical('/?page=2')).toBe(`${forum.url}/?page=2`);
    expect(await canonical('/?sort=popularity&page=3&utm_source=chat')).toBe(`${forum.url}/?page=3&sort=popularity`);
    expect(await canonical('/?page=1&sort=newest')).toBe(`${forum.url}/`);
    expect(await canonical('/tags/kestrels?page=2')).toBe(`${forum.url}/tags/Kestrels?page=2`);
    expect(await canonical(`/u/${me._id}?page=2`)).toBe(`${forum.url}/u/${me._id}?page=2`);
    // and its title says which page it is (search engines flag pages that share one)
    const title = async (path: string) => unescaped(/<title>([^<]*)<\/title>/.exec((await page(path)).html)?.[1] ?? '');
    expect(await title('/?page=2')).toBe('Home · Page 2 · Forum');
    expect(await title('/?page=1')).toBe('Home · Forum');
    expect(await title('/tags/kestrels?page=3')).toBe('#Kestrels · Page 3 · Forum');
    expect(await title(`/u/${me._id}?page=2`)).toBe('Page Writer · Page 2 · Forum');
  });

  it('a stranger’s odd addresses get the forum’s pages, never an error and never their text as markup', async () => {
    const odd = [
      '/tags/%E2%80%8B',
      `/tags/${'x'.repeat(5000)}`,
      '/tags/%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      `/post/${postId}?q=%3C/script%3E%3Cscript%3E`,
      '/u/%E2%80%8B',
      '/?page=-1&sort=%3Cscript%3E',
    ];
    for (const path of odd) {
      const { status, html } = await page(path);
      expect([200, 404], path).toContain(status);
      expect(html, path).not.toContain('<script>alert');
      expect(html, path).not.toContain('</script><script>');
    }
  });

  it('an unknown tag or member is 404; any other path is the plain page', async () => {
    expect((await page('/tags/NoSuchTag')).status).toBe(404);
    expect((await page('/u/3e06aacc-67fc-4d09-87a1-4d80c0885730')).status).toBe(404);
    const about = await page('/about');
    expect(about.status).toBe(200);
    expect(about.html).toContain('<div id="root"></div>');
  });
});
