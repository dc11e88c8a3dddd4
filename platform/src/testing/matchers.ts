import { expect } from 'vitest';

// vitest's asymmetric matchers typed `unknown` (vitest types them `any`), for the values a test
// compares with toEqual or toMatchObject.

/** Any string. */
export const anyString: unknown = expect.any(String);
/** Any number. */
export const anyNumber: unknown = expect.any(Number);
/** Any array. */
export const anyArray: unknown = expect.any(Array);
/** A string that matches `pattern`. */
export const matching = (pattern: RegExp | string): unknown => expect.stringMatching(pattern);
/** A string that contains `text`. */
export const containing = (text: string): unknown => expect.stringContaining(text);
