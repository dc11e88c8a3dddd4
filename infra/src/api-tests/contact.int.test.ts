import { HEADER_MIN_POSITION, type ContactMessagesPage, type ErrorBody } from '@forum/contracts';
import { anyString } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';

/**
 * The Contact page's messages as the admin reads them. What POST /api/contact answers and refuses, and
 * its limit per client address, are the route tests' (command-service/src/http/contact.route.test.ts, write-limits.route.test.ts).
 */
let forum: TestForum;
let admin: { id: string; token: string };
let sent = 0;

beforeAll(async () => {
  forum = await startTestForum();
  admin = await forum.demoAdmin();
});
afterAll(() => forum?.stop());

const contact = (body: unknown, token?: string) => forum.api('/api/contact', { method: 'POST', json: body, ...(token && { token }) });
const message = { name: 'Vera Visitor', email: 'vera@example.com', message: 'Do you have a dark mode?' };
async function send(body: unknown, token?: string) {
  const response = await contact(body, token);
  expect(response.status).toBe(201);
  sent++;
  return (await response.json()) as { id: string; position: string };
}

describe('GET /api/admin/contact-messages', () => {
  it('lists the messages newest first for an admin, {messages, totalMessages}, and in react-admin form', async () => {
    const { position } = await send({ ...message, message: 'Newest one' });
    const page = await forum.api('/api/admin/contact-messages', { token: admin.token, headers: { [HEADER_MIN_POSITION]: position } });
    const body = (await page.json()) as ContactMessagesPage;
    expect(body.totalMessages).toBe(sent);
    expect(body.messages[0]).toEqual({ _id: anyString, name: 'Vera Visitor', email: 'vera@example.com', message: 'Newest one', receivedAt: anyString });
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
