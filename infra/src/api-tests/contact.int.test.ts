import { CONTACT_MESSAGE_MAX, HEADER_MIN_POSITION, type ContactMessagesPage, type ErrorBody } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';

/** The Contact page's limit per client address is in write-limits.int.test.ts with the other limits. */
let forum: TestForum;
let admin: { id: string; token: string };
let sent = 0;

beforeAll(async () => {
  forum = await startTestForum();
  admin = await forum.demoAdmin();
});
afterAll(() => forum?.stop());

const eventCount = () => forum.eventCount();
const contact = (body: unknown, token?: string) => forum.api('/api/contact', { method: 'POST', json: body, ...(token && { token }) });
const message = { name: 'Vera Visitor', email: 'vera@example.com', message: 'Do you have a dark mode?' };
async function send(body: unknown, token?: string) {
  const response = await contact(body, token);
  expect(response.status).toBe(201);
  sent++;
  return (await response.json()) as { id: string; position: string };
}

describe('POST /api/contact', () => {
  it('stores a visitor\'s message without a token: 201 {id, position}, ContactMessageReceived by "anonymous"', async () => {
    const { id, position } = await send({ name: ' Vera Visitor ', email: 'Vera@Example.com', message: ' Do you have a dark mode? ' });
    const { events } = await forum.store.readStream(`contact-${id}`);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'ContactMessageReceived',
        data: { messageId: id, name: 'Vera Visitor', email: 'vera@example.com', message: 'Do you have a dark mode?', receivedAt: expect.any(String) },
        metadata: expect.objectContaining({ actorId: 'anonymous' }),
      }),
    ]);
    expect(position).toMatch(/^\d+\.\d+$/);
  });

  it("records a signed-in sender's id as the actor, and refuses a bad token with 401", async () => {
    const user = await forum.newUser('Sender');
    const { id } = await send(message, user.token);
    expect((await forum.store.readStream(`contact-${id}`)).events[0]!.metadata.actorId).toBe(user.id);
    expect((await contact(message, 'not.a.token')).status).toBe(401);
  });

  it.each([
    ['nothing', {}, ['name', 'email', 'message']],
    ['blank fields', { name: ' ', email: ' ', message: '\n' }, ['name', 'email', 'message']],
    ['a bad email', { ...message, email: 'vera@' }, ['email']],
    ['an address registration refuses (a@b, #39 edge 3)', { ...message, email: 'a@b' }, ['email']],
    ['a message that is too long', { ...message, message: 'x'.repeat(CONTACT_MESSAGE_MAX + 1) }, ['message']],
  ])('refuses %s with 400 on each field and appends nothing', async (_case, body, fields) => {
    const before = await eventCount();
    const response = await contact(body);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as ErrorBody;
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(error.details!).sort()).toEqual([...fields].sort());
    expect(await eventCount()).toBe(before);
  });

  it('#39 edge 3: says of a@b what it says of any address that is none, as registration does', async () => {
    const { error } = (await (await contact({ ...message, email: 'a@b' })).json()) as ErrorBody;
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', details: { email: ['Not a valid email address'] } });
  });

  it('gives the required fields their messages', async () => {
    const { error } = (await (await contact({})).json()) as ErrorBody;
    expect(error.details).toEqual({ name: ['Name is required'], email: ['Email is required'], message: ['Message is required'] });
  });
});

describe('GET /api/admin/contact-messages', () => {
  it('lists the messages newest first for an admin, {messages, totalMessages}, and in react-admin form', async () => {
    const { position } = await send({ ...message, message: 'Newest one' });
    const page = await forum.api('/api/admin/contact-messages', { token: admin.token, headers: { [HEADER_MIN_POSITION]: position } });
    const body = (await page.json()) as ContactMessagesPage;
    expect(body.totalMessages).toBe(sent);
    expect(body.messages[0]).toEqual({ _id: expect.any(String), name: 'Vera Visitor', email: 'vera@example.com', message: 'Newest one', receivedAt: expect.any(String) });
    const times = body.messages.map((m) => Date.parse(m.receivedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const ranged = await forum.api('/api/admin/contact-messages?range=[0,0]', { token: admin.token });
    expect(ranged.headers.get('Content-Range')).toBe(`contact-messages 0-0/${sent}`);
    expect(await ranged.json()).toEqual([{ id: body.messages[0]!._id, ...body.messages[0] }]);
  });

  it('answers 401 without a token and 403 FORBIDDEN for a user', async () => {
    expect((await forum.api('/api/admin/contact-messages')).status).toBe(401);
    const user = await forum.newUser('Reader');
    const response = await forum.api('/api/admin/contact-messages', { token: user.token });
    expect(response.status).toBe(403);
    expect(((await response.json()) as ErrorBody).error.code).toBe('FORBIDDEN');
  });
});
