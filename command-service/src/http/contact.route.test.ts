import { CONTACT_MESSAGE_MAX } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { aPosition, anError, anId, commandApiSpec, hostileText, member, visitor, withAuthorization } from '../testing/index.ts';
import { anyString } from '@forum/platform/testing';

/** POST /api/contact (the Contact page, in admin.ts): anyone may write; a token, when sent, must be good. */
const api = commandApiSpec();
const sam = member('Sam Sender');
const message = { name: 'Vera Visitor', email: 'vera@example.com', message: 'Do you have a dark mode?' };

describe('POST /api/contact', () => {
  it('stores a visitor\'s message, trimmed, without a token: 201 {id, position}, ContactMessageReceived by "anonymous"', async () => {
    const { body } = await api
      .when(visitor.post('/api/contact', { name: ' Vera Visitor ', email: 'Vera@Example.com', message: ' Do you have a dark mode? ' }))
      .then(201, { id: anId, position: aPosition }, [
        {
          type: 'ContactMessageReceived',
          data: { name: 'Vera Visitor', email: 'vera@example.com', message: 'Do you have a dark mode?', receivedAt: anyString },
          metadata: { actorId: 'anonymous' },
        },
      ]);
    const { id } = body as { id: string };
    expect((await api.log()).at(-1)).toMatchObject({ streamId: `contact-${id}`, data: { messageId: id } });
  });

  it("records a signed-in sender's id as the actor, and refuses a bad token with 401", async () => {
    await api
      .when(sam.post('/api/contact', message))
      .then(201, { id: anId, position: aPosition }, [{ type: 'ContactMessageReceived', metadata: { actorId: sam.id } }]);
    await api.when(withAuthorization('Bearer not.a.token').post('/api/contact', message)).then(401, anError('UNAUTHENTICATED'));
    await api.when(sam.withToken({ expiresIn: -60 }).post('/api/contact', message)).then(401, anError('UNAUTHENTICATED', { message: 'The token has expired' }));
  });

  it.each([
    ['nothing', {}, ['name', 'email', 'message']],
    ['blank fields', { name: ' ', email: ' ', message: '\n' }, ['name', 'email', 'message']],
    ['a bad email', { ...message, email: 'vera@' }, ['email']],
    ['an address registration refuses (a@b, #39 edge 3)', { ...message, email: 'a@b' }, ['email']],
    ['a message that is too long', { ...message, message: 'x'.repeat(CONTACT_MESSAGE_MAX + 1) }, ['message']],
    ...hostileText('line').flatMap(([what, value]) => [
      [`${what} in the name`, { ...message, name: value }, ['name']],
      [`${what} in the email`, { ...message, email: value }, ['email']],
    ]),
    ...hostileText('body').map(([what, value]) => [`${what} in the message`, { ...message, message: value }, ['message']]),
  ] as [string, object, string[]][])('refuses %s with 400 on each field, appending nothing', async (_case, body, fields) => {
    const { body: answer } = await api.when(visitor.post('/api/contact', body)).then(400, anError('VALIDATION_FAILED'));
    expect(Object.keys((answer as { error: { details: object } }).error.details).sort()).toEqual([...fields].sort());
  });

  it('#39 edge 3: says of a@b what it says of any address that is none, as registration does', async () => {
    await api
      .when(visitor.post('/api/contact', { ...message, email: 'a@b' }))
      .then(400, anError('VALIDATION_FAILED', { details: { email: ['Not a valid email address'] } }));
  });

  it('gives the required fields their messages', async () => {
    await api
      .when(visitor.post('/api/contact', {}))
      .then(400, anError('VALIDATION_FAILED', { details: { name: ['Name is required'], email: ['Email is required'], message: ['Message is required'] } }));
  });

  it('takes an address the realm accepts (international ones)', async () => {
    for (const email of ['jösé@example.com', 'ann@bücher.de']) await api.when(visitor.post('/api/contact', { ...message, email })).then(201);
  });

  it('refuses a body that is not UTF-8 with 400 and one that is not JSON with 415, appending nothing', async () => {
    for (const bytes of [[0xed, 0xa0, 0x80], [0xff]]) {
      const body = Buffer.concat([Buffer.from('{"name":"a'), Buffer.from(bytes), Buffer.from('b","email":"v@example.com","message":"m"}')]);
      await api.when(visitor.send('POST', '/api/contact', body)).then(400, anError('VALIDATION_FAILED', { message: 'The body is not valid UTF-8' }));
    }
    await api.when(visitor.send('POST', '/api/contact', JSON.stringify(message), 'text/plain')).then(415, anError('UNSUPPORTED_MEDIA_TYPE'));
  });
});
