import { ErrorCode } from '@forum/contracts';
import {
  AccountDisabledError,
  BusinessRuleError,
  ConflictError,
  errorAnswer,
  ForbiddenError,
  NotFoundError,
  UnavailableError,
  ValidationError,
  type AppError,
} from '@forum/platform';
import { describe, expect, it } from 'vitest';
import { AccountClosed, Conflict, Forbidden, InvalidInput, NotFound, RuleBroken, Unavailable, type DomainError } from '../domain/errors.ts';
import { answerDomainErrors, httpErrorOf } from './domain-errors.ts';

/** Each kind of domain error beside the platform's HTTP error that answers as it must. */
const cases: readonly (readonly [string, DomainError, AppError])[] = [
  ['invalid input: 400', new InvalidInput({ title: ['Title is required'] }), new ValidationError({ title: ['Title is required'] })],
  ['an erased account: 401', new AccountClosed('erased'), new AccountDisabledError('erased')],
  ['a disabled account: 401', new AccountClosed('disabled'), new AccountDisabledError('disabled')],
  ['forbidden: 403', new Forbidden('You must be an admin to do this'), new ForbiddenError('You must be an admin to do this')],
  ['not found: 404', new NotFound('No such post'), new NotFoundError('No such post')],
  [
    'a conflict with its own code and details: 409',
    new Conflict('The tag "React" already exists', ErrorCode.TAG_EXISTS, { tag: { _id: 't', name: 'React' } }),
    new ConflictError('The tag "React" already exists', ErrorCode.TAG_EXISTS, { tag: { _id: 't', name: 'React' } }),
  ],
  ['a plain conflict: 409', new Conflict('Post p already exists'), new ConflictError('Post p already exists')],
  [
    'a rule that says no: 422',
    new RuleBroken(ErrorCode.POST_LIMIT_REACHED, 'Free members can have at most 5 posts.', { count: 5, limit: 5 }),
    new BusinessRuleError(ErrorCode.POST_LIMIT_REACHED, 'Free members can have at most 5 posts.', { count: 5, limit: 5 }),
  ],
  ['unavailable: 503', new Unavailable('No payment provider is configured'), new UnavailableError('No payment provider is configured')],
];

describe('a domain error at the command API edge', () => {
  it.each(cases)('%s', (_, domain, http) => {
    expect(errorAnswer(httpErrorOf(domain))).toEqual(errorAnswer(http));
  });

  it('answers with its code’s status (ERROR_STATUS), its code, message and details', () => {
    expect(errorAnswer(httpErrorOf(new RuleBroken(ErrorCode.OWN_POST_VOTE, 'You cannot vote on your own post.')))).toEqual({
      status: 422,
      body: { error: { code: 'OWN_POST_VOTE', message: 'You cannot vote on your own post.' } },
      headers: {},
      unexpected: false,
    });
  });

  it('goes on to the server as its HTTP error; any other error goes on as it is', () => {
    expect(() => answerDomainErrors(new NotFound('No such tag'))).toThrowError(
      expect.objectContaining({ status: 404, code: 'NOT_FOUND', message: 'No such tag' }),
    );
    const other = Object.assign(new Error('body too large'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 });
    expect(() => answerDomainErrors(other)).toThrowError(other);
  });
});
