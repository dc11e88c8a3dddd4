import { HEADER_EVENT_POSITION, HEADER_TOTAL_COUNT } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerMismatch } from './api-document.ts';

const Item = z.object({ id: z.string(), note: z.string().optional() });
const schema = { answers: { 200: { body: Item.array(), headers: [HEADER_TOTAL_COUNT] }, 204: { body: null } } } as const;
const carries =
  (...names: string[]) =>
  (name: string) =>
    names.includes(name);

describe('a success answer held to what its route declares (answerMismatch)', () => {
  it('holds when its status is declared, its body parses and names no field the schema does not, and its headers are declared', () => {
    expect(answerMismatch(schema, 200, '[{"id":"a"},{"id":"b","note":"n"}]', carries(HEADER_TOTAL_COUNT, 'Content-Type'))).toBeUndefined();
    expect(answerMismatch(schema, 204, '', carries())).toBeUndefined();
  });

  it('fails on a route that declares no success answer, and on a status it does not declare', () => {
    expect(answerMismatch({}, 200, '{}', carries())).toBe('declares no success answer (schema.answers)');
    expect(answerMismatch(schema, 201, '[]', carries())).toBe('answered 201, which it does not declare');
  });

  it('fails on a body that does not parse, that is not JSON, or that has a field its schema does not name (at any depth)', () => {
    expect(answerMismatch(schema, 200, '[{"id":1}]', carries())).toMatch(/^200 does not parse with its schema: 0\.id: /);
    expect(answerMismatch(schema, 200, 'not json', carries())).toBe('200 has a body that is not JSON');
    expect(answerMismatch(schema, 200, '[{"id":"a"},{"id":"b","email":"x@y"}]', carries())).toBe('200 has [1].email, which its schema does not name');
    expect(answerMismatch(schema, 204, '{}', carries())).toBe('204 has a body, yet declares none');
  });

  it('fails on a header of the API it carries without declaring it (its own answer’s, or its context’s)', () => {
    expect(answerMismatch(schema, 200, '[]', carries(HEADER_EVENT_POSITION))).toBe(`200 carries ${HEADER_EVENT_POSITION}, which it does not declare`);
    expect(answerMismatch({ ...schema, answerHeaders: [HEADER_EVENT_POSITION] }, 200, '[]', carries(HEADER_EVENT_POSITION))).toBeUndefined();
  });
});
