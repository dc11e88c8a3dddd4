import { describe, expect, it } from 'vitest';
import { duplicateKeysOf } from './log-lines.ts';

describe('duplicateKeysOf', () => {
  it('names each key an object holds twice, at any depth, and nothing in strings or arrays', () => {
    expect(duplicateKeysOf('{"service":"forum","component":"live","msg":"a \\"service\\":, {"}')).toEqual([]);
    expect(duplicateKeysOf('{"service":"forum","service":"identity","req":{"id":"1","id":"2"},"list":[{"a":1},{"a":2}]}')).toEqual(['service', 'req.id']);
  });
});
