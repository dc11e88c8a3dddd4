import type { ErrorBody } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../testing/expect-status.ts';
import { startTestForum, type TestForum } from '../testing/forum.ts';

/**
 * One rule for every number in a query string (docs/api.md#numbers-in-query-strings): decimal
 * digits 0-9, a minus sign allowed in front (so that a number below the least is told so). Hex,
 * exponents, a plus sign, spaces, a fraction's point and other scripts' digits are refused with a
 * 400 naming the parameter; leading zeros are decimal (`016` is 16). react-admin's `range` is JSON,
 * and its two numbers follow the same rule.
 */
let forum: TestForum;
let admin: string;
let postId: string;

beforeAll(async () => {
  forum = await startTestForum();
  admin = (await forum.demoAdmin()).token;
  postId = (
    await forum.call<{ id: string }>('POST', '/api/posts', { token: admin, body: { title: 'Numbered', description: 'For the numbers', tags: [] }, expect: 201 })
  ).id;
});
afterAll(() => forum?.stop());

/** Every numeric query parameter of the API: where it is, who may ask, and how its refusal names it. */
const PARAMETERS = [
  { name: 'page', route: 'GET /api/posts', path: () => '/api/posts?sort=newest', label: 'Page' },
  { name: 'page', route: 'GET /api/posts/search', path: () => '/api/posts/search?q=numbered', label: 'Page' },
  { name: 'page', route: 'GET /api/admin/users', path: () => '/api/admin/users?search=a', label: 'Page', admin: true },
  { name: 'page', route: 'GET /api/admin/contact-messages', path: () => '/api/admin/contact-messages?x=1', label: 'Page', admin: true },
  { name: 'page', route: 'GET /api/admin/audit', path: () => '/api/admin/audit?x=1', label: 'Page', admin: true },
  { name: 'limit', route: 'GET /api/posts/:id/comments', path: () => `/api/posts/${postId}/comments?order=newest`, label: 'Limit' },
  { name: 'limit', route: 'GET /api/admin/history/:kind/:id', path: () => `/api/admin/history/post/${postId}?x=1`, label: 'Limit', admin: true },
] as const;

const NOT_DECIMAL = [
  '0x10',
  '0X10',
  '1e1',
  '1E1',
  '+16',
  ' 16',
  '16 ',
  '1 6',
  '16.0',
  '16.',
  '.5',
  '0b10',
  '0o20',
  '１６',
  '١٦',
  'Infinity',
  'NaN',
  '16px',
  '',
  '-',
  '--1',
];

const get = (path: string, token?: string) => forum.api(path, token ? { token } : {});

describe('a number in a query string', () => {
  it.each(PARAMETERS.map((p) => [`${p.name} of ${p.route}`, p] as const))('%s: decimal digits only, else 400 naming it', async (_, parameter) => {
    const token = 'admin' in parameter ? admin : undefined;
    const at = (value: string) => `${parameter.path()}&${parameter.name}=${encodeURIComponent(value)}`;
    for (const value of NOT_DECIMAL) {
      const { error } = await expectStatus<ErrorBody>(get(at(value), token), 400, `${parameter.name}=${JSON.stringify(value)}`);
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.details, `${parameter.name}=${JSON.stringify(value)}`).toEqual({
        [parameter.name]: [`${parameter.label} must be a whole number in digits 0-9`],
      });
    }
    // a number below the least is told so, in its own words
    const below = await expectStatus<ErrorBody>(get(at('-1'), token), 400);
    expect(below.error.details).toEqual({ [parameter.name]: [`${parameter.label} starts at 1`] });
    // twice is a list, not a number
    await expectStatus(get(`${at('1')}&${parameter.name}=2`, token), 400);
    // decimal digits are read as decimal, leading zeros too
    const one = await expectStatus<unknown>(get(at('1'), token), 200);
    expect(await expectStatus<unknown>(get(at('01'), token), 200)).toEqual(one);
    expect(await expectStatus<unknown>(get(at('0001'), token), 200)).toEqual(one);
  });

  it("react-admin's range: two numbers in decimal digits, in JSON", async () => {
    for (const range of ['[0x10,20]', '[1e1,20]', '[+1,9]', '[0,9.0]', '[ 0 ,9]x', '["0","9"]', '[0,9,1]']) {
      const { error } = await expectStatus<ErrorBody>(get(`/api/admin/tags?range=${encodeURIComponent(range)}`, admin), 400, `range=${range}`);
      expect(error.details, `range=${range}`).toHaveProperty('range');
    }
    for (const range of ['[0,9]', '[ 0 , 9 ]', '[00,09]']) {
      await expectStatus(get(`/api/admin/tags?range=${encodeURIComponent(range)}`, admin), 200, `range=${range}`);
    }
  });
});
