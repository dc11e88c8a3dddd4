import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { type Token, type TokensList, lexer, walkTokens } from 'marked';
import { describe, expect, it } from 'vitest';

/**
 * The README and docs/ are read on GitHub and in a checkout: every relative link and image must
 * point at a file of the repository (never outside it), and every anchor at a heading of the page
 * it names, as GitHub spells headings' anchors.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const README_MAX_LINES = 250;

const pages = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join('docs', name)),
].sort();

const tokensOf = new Map<string, TokensList>();
function tokens(page: string): TokensList {
  let found = tokensOf.get(page);
  if (!found) {
    found = lexer(readFileSync(path.join(root, page), 'utf8'));
    tokensOf.set(page, found);
  }
  return found;
}

function plainText(token: Token): string {
  if ('tokens' in token && token.tokens) return token.tokens.map(plainText).join('');
  return 'text' in token && typeof token.text === 'string' ? token.text : '';
}

function anchors(page: string): Set<string> {
  const slugger = new GithubSlugger();
  const found = new Set<string>();
  void walkTokens(tokens(page), (token) => {
    if (token.type === 'heading') found.add(slugger.slug(plainText(token)));
  });
  return found;
}

/** Every link and image target of a page: Markdown's, and the src/href of inline HTML. */
function targets(page: string): string[] {
  const found: string[] = [];
  void walkTokens(tokens(page), (token) => {
    if ((token.type === 'link' || token.type === 'image') && typeof token.href === 'string') found.push(token.href);
    if (token.type === 'html' && typeof token.text === 'string') {
      for (const match of token.text.matchAll(/\b(?:src|href)="([^"]*)"/g)) found.push(match[1]!);
    }
  });
  return found;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

function problem(page: string, target: string): string | undefined {
  const [rawPath = '', anchor] = target.split('#', 2);
  const file = rawPath === '' ? page : path.normalize(path.join(path.dirname(page), decodeURIComponent(rawPath)));
  if (rawPath.startsWith('/') || file.startsWith('..')) return 'points outside the repository';
  const full = path.join(root, file);
  if (!existsSync(full)) return 'no such file';
  if (anchor && statSync(full).isFile() && file.endsWith('.md') && !anchors(file).has(anchor)) {
    return `no heading with the anchor #${anchor} in ${file}`;
  }
  return undefined;
}

describe('the README and docs/', () => {
  it('finds the pages it checks', () => {
    expect(pages).toContain('README.md');
    expect(pages).toContain(path.join('docs', 'README.md'));
  });

  it.each(pages)('%s: every relative link and image points at a file of the repository', (page) => {
    const broken = targets(page)
      .filter((target) => !isExternal(target))
      .flatMap((target) => {
        const why = problem(page, target);
        return why ? [`${target}: ${why}`] : [];
      });
    expect(broken).toEqual([]);
  });

  it(`keeps the README a front door of at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(path.join(root, 'README.md'), 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('sees a broken link, a missing anchor and a path outside the repository', () => {
    expect(targets('README.md')).toContain('docs/screenshots/home-desktop.png');
    expect(problem('README.md', 'docs/no-such-page.md')).toBe('no such file');
    expect(problem('README.md', 'docs/api.md#no-such-heading')).toMatch(/no heading/);
    expect(problem('README.md', '../shared/spec/forum-spec.md')).toBe('points outside the repository');
    expect(problem('docs/api.md', '../README.md#how-it-is-built')).toBeUndefined();
  });
});
