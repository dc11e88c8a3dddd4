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
/** Any boolean. */
export const anyBoolean: unknown = expect.any(Boolean);
/** A string that does not contain `text`. */
export const notContaining = (text: string): unknown => expect.not.stringContaining(text);
/** An object with at least these properties (each compared as toEqual does). */
export const objectContaining = (properties: Record<string, unknown>): unknown => expect.objectContaining(properties);
/** An array holding at least these items, in any order. */
export const arrayContaining = (items: unknown[]): unknown => expect.arrayContaining(items);
