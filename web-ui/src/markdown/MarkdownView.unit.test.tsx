// @vitest-environment jsdom
import { XSS_VECTORS } from '@forum/contracts/markdown/xss-corpus';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MarkdownView } from './MarkdownView.tsx';
import { LINK_REL } from './render-tokens.tsx';

afterEach(cleanup);

const OWN = 'https://forum.example';
const shown = (source: string) => render(<MarkdownView source={source} ownOrigin={OWN} />).container;

/** Every attribute of every element, as `tag attr=value`. */
const attributes = (root: Element) =>
  [...root.querySelectorAll('*')].flatMap((el) => [...el.attributes].map((a) => ({ tag: el.tagName.toLowerCase(), name: a.name, value: a.value })));

describe('Markdown rendered', () => {
  it('shows CommonMark and GFM: demoted headings, emphasis, strikethrough, lists, quotes, tables, task lists, autolinks', () => {
    const root = shown(
      [
        '# Title',
        '## Section',
        '#### Deep',
        '',
        'Some **bold**, _italic_ and ~~gone~~, see https://example.com/a or <mailto:a@example.com>.',
        '',
        '1. one',
        '2. two',
        '',
        '- [ ] open',
        '- [x] done',
        '',
        '> quoted',
        '',
        '| left | right |',
        '| :--- | ----: |',
        '| a | b |',
      ].join('\n'),
    );
    expect(root.querySelector('h1, h2')).toBeNull();
    expect(screen.getByRole('heading', { level: 3, name: 'Title' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 4, name: 'Section' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 6, name: 'Deep' })).toBeTruthy();
    expect(root.querySelector('strong')?.textContent).toBe('bold');
    expect(root.querySelector('em')?.textContent).toBe('italic');
    expect(root.querySelector('s')?.textContent).toBe('gone');
    expect(screen.getByRole('link', { name: 'https://example.com/a' }).getAttribute('href')).toBe('https://example.com/a');
    expect(screen.getByRole('link', { name: 'mailto:a@example.com' }).getAttribute('href')).toBe('mailto:a@example.com');
    for (const link of screen.getAllByRole('link')) expect(link.getAttribute('rel')).toBe(LINK_REL);
    expect(within(root.querySelector('ol')!).getAllByRole('listitem')).toHaveLength(2);
    const open = screen.getByRole('checkbox', { name: 'Not done' });
    const done = screen.getByRole('checkbox', { name: 'Done' });
    expect([(open as HTMLInputElement).checked, (done as HTMLInputElement).checked, (done as HTMLInputElement).disabled]).toEqual([false, true, true]);
    expect(root.querySelector('blockquote')?.textContent).toBe('quoted');
    expect(screen.getByRole('columnheader', { name: 'right' }).style.textAlign).toBe('right');
    expect(screen.getByRole('cell', { name: 'a' })).toBeTruthy();
  });

  it('links an @mention to the profile of the handle, and leaves addresses, code and link texts alone', () => {
    const root = shown('Thanks @Bob.Chen and @ann_b! Mail a@example.com, run `@npm`, see [@ann_b](https://example.com).');
    const mentions = within(root)
      .getAllByRole('link')
      .filter((link) => link.hasAttribute('data-mention'));
    expect(mentions.map((link) => [link.textContent, link.getAttribute('href'), link.getAttribute('rel')])).toEqual([
      ['@Bob.Chen', '/u/@Bob.Chen', null],
      ['@ann_b', '/u/@ann_b', null],
    ]);
    expect(root.textContent).toContain('Mail a@example.com, run @npm, see @ann_b.');
  });

  it('keeps line breaks as written (posts from before Markdown) and shows HTML as text', () => {
    const root = shown('first line\nsecond line <b>not bold</b>');
    expect(root.querySelectorAll('br')).toHaveLength(1);
    expect(root.querySelector('b')).toBeNull();
    expect(root.textContent).toBe('first linesecond line <b>not bold</b>');
  });

  it('loads images over https only, lazily, with their alt, never from its own origin', () => {
    const root = shown('![a cat](https://img.example/cat.png) ![plain](http://img.example/a.png) ![own](https://forum.example/api/me) ![rel](/x.png)');
    const images = root.querySelectorAll('img');
    expect(images).toHaveLength(1);
    expect([images[0]?.getAttribute('src'), images[0]?.getAttribute('alt'), images[0]?.getAttribute('loading')]).toEqual([
      'https://img.example/cat.png',
      'a cat',
      'lazy',
    ]);
    expect(screen.getByRole('link', { name: 'plain' }).getAttribute('href')).toBe('http://img.example/a.png');
    expect(screen.getByRole('link', { name: 'own' }).getAttribute('href')).toBe('https://forum.example/api/me');
    expect(root.textContent).toContain('![rel](/x.png)');
  });

  it('highlights a fenced block once its chunk has loaded, its code as text before', async () => {
    const root = shown('```ts\nconst answer: number = 42; // the answer\n```');
    const pre = root.querySelector('pre')!;
    expect(pre.textContent).toBe('const answer: number = 42; // the answer');
    await waitFor(() => expect(pre.getAttribute('data-highlighted')).toBe('true'));
    expect(pre.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(pre.querySelector('.hljs-comment')?.textContent).toBe('// the answer');
    expect(pre.textContent).toBe('const answer: number = 42; // the answer');
  });

  it.each(XSS_VECTORS)('makes nothing that runs of $name', async ({ source }) => {
    const root = shown(source);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(root.querySelectorAll('script, iframe, object, embed, svg, math, style, base, form, body')).toHaveLength(0);
    for (const { tag, name, value } of attributes(root)) {
      expect(name, `${tag} ${name}`).not.toMatch(/^on/i);
      if (name === 'href' || name === 'src') expect(value, `${tag} ${name}`).toMatch(/^(https:|http:|mailto:)/i);
      if (tag === 'img') expect(root.querySelector('img')?.getAttribute('src')).toMatch(/^https:\/\/example\.com\//);
    }
  });
});
