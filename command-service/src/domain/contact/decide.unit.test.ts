import { describe, expect, it } from 'vitest';
import { stateAfter, testCommandMeta } from '../testing.ts';
import { evolve, initialContactMessageState } from './contact.ts';
import { decide, type ReceiveContactMessage } from './decide.ts';

const meta = testCommandMeta({ actorId: 'anonymous' });
const ID = '33333333-3333-4333-8333-333333333333';
const receive = (data: Partial<ReceiveContactMessage['data']> = {}): ReceiveContactMessage => ({
  type: 'ReceiveContactMessage',
  data: { messageId: ID, name: 'Vera Visitor', email: 'vera@example.com', message: 'Do you have a dark mode?', ...data },
});
const given = stateAfter(evolve, initialContactMessageState);

describe('given no message under the id', () => {
  it('when ReceiveContactMessage, then ContactMessageReceived, trimmed, the email lower-cased, at the clock', () => {
    expect(
      decide(receive({ name: ' Vera Visitor ', email: ' Vera@Example.com ', message: '\nDo you have a dark mode? ' }), initialContactMessageState, meta),
    ).toEqual([
      {
        type: 'ContactMessageReceived',
        data: { messageId: ID, name: 'Vera Visitor', email: 'vera@example.com', message: 'Do you have a dark mode?', receivedAt: '2026-11-21T10:00:00.000Z' },
      },
    ]);
  });
  it('when a field is blank, then 400 naming each blank field', () => {
    expect(() => decide(receive({ name: '  ', email: '', message: ' ' }), initialContactMessageState, meta)).toThrowError(
      expect.objectContaining({ kind: 'invalid', details: { name: ['Name is required'], email: ['Email is required'], message: ['Message is required'] } }),
    );
  });
});

describe('given a message received under the id', () => {
  const state = given(decide(receive(), initialContactMessageState, meta));
  it('when ReceiveContactMessage again, then 409', () => {
    expect(() => decide(receive(), state, meta)).toThrowError(expect.objectContaining({ kind: 'conflict' }));
  });
});
