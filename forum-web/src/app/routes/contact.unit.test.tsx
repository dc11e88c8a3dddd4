// @vitest-environment jsdom
import { CONTACT_MESSAGE_MAX, CONTACT_NAME_MAX, EMAIL_MAX } from '@forum/contracts';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { descriptionOf, n, stubApi } from '@forum/web-ui/testing';
import { renderWithApp } from '../../testing/render-with-app';
import { ContactPage } from './contact';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Contact', () => {
  it('counts name, email and message against their limits and sends what was typed', async () => {
    let sent: unknown;
    stubApi({
      'POST /api/contact': async (request) => {
        sent = await request.json();
        return { status: 201, body: { id: 'm1', position: '7.1' } };
      },
    });
    renderWithApp(<ContactPage />, { path: '/contact', user: null });
    const name = screen.getByRole('textbox', { name: 'Name' });
    const email = screen.getByRole('textbox', { name: 'Email' });
    const message = screen.getByRole('textbox', { name: 'Message' });
    expect(descriptionOf(name)).toBe(`${n(CONTACT_NAME_MAX)} characters left (0 of ${n(CONTACT_NAME_MAX)})`);
    expect(descriptionOf(email)).toBe(`${n(EMAIL_MAX)} characters left (0 of ${n(EMAIL_MAX)})`);
    await userEvent.type(name, 'Vera');
    await userEvent.type(email, 'vera@example.com');
    await userEvent.type(message, 'Hello there');
    expect(descriptionOf(message)).toBe(`${n(CONTACT_MESSAGE_MAX - 11)} characters left (11 of ${n(CONTACT_MESSAGE_MAX)})`);
    await userEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    await screen.findByText('Thank you! Your message has been sent. We will get back to you soon.');
    expect(sent).toEqual({ name: 'Vera', email: 'vera@example.com', message: 'Hello there' });
    await waitFor(() => expect((message as HTMLTextAreaElement).value).toBe(''));
  });

  it('#39 edge 1: after a message is sent, a second attempt the browser blocks (Name empty) no longer says it was sent', async () => {
    const { calls } = stubApi({ 'POST /api/contact': () => ({ status: 201, body: { id: 'm1', position: '7.1' } }) });
    renderWithApp(<ContactPage />, { path: '/contact', user: null });
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Vera');
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'vera@example.com');
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Hello there');
    await userEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    const thanks = 'Thank you! Your message has been sent. We will get back to you soon.';
    await screen.findByText(thanks);
    // the browser refuses the second submit (Name is required and empty): no submit event reaches the page
    await userEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(screen.queryByText(thanks)).toBeNull();
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'vera@example.com');
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'A second thought');
    await userEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(screen.queryByText(thanks)).toBeNull();
    expect(calls.filter((call) => call === 'POST /api/contact')).toHaveLength(1);
  });

  it('#39 edge 3: an address registration refuses (a@b) is refused here too, before anything is sent', async () => {
    const { calls } = stubApi({});
    renderWithApp(<ContactPage />, { path: '/contact', user: null });
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Vera');
    const email = screen.getByRole('textbox', { name: 'Email' });
    await userEvent.type(email, 'a@b');
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Hello there');
    await userEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    await waitFor(() => expect(descriptionOf(email)).toMatch(/^Not a valid email address/));
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(calls).not.toContain('POST /api/contact');
  });

  it('#39 edge 4: a message one character over the limit says so once, on its counter, and is not sent', async () => {
    const { calls } = stubApi({});
    renderWithApp(<ContactPage />, { path: '/contact', user: null });
    const message = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Vera');
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'vera@example.com');
    await userEvent.click(message);
    await userEvent.paste('x'.repeat(CONTACT_MESSAGE_MAX + 1));
    await userEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(descriptionOf(message)).toBe(`1 character too many (the most is ${n(CONTACT_MESSAGE_MAX)})`);
    expect(message.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText(`Message must be at most ${CONTACT_MESSAGE_MAX} characters`)).toBeNull();
    expect(calls).not.toContain('POST /api/contact');
  });

  it('#28.15 a refusal that names fields shows them on the fields, with no banner beside them; the message box counts to its cap', async () => {
    stubApi({
      'POST /api/contact': () => ({
        status: 400,
        body: { error: { code: 'VALIDATION_FAILED', message: 'The request is not valid', details: { email: ['This address cannot receive mail'] } } },
      }),
    });
    renderWithApp(<ContactPage />, { path: '/contact', user: null });
    const message = screen.getByRole('textbox', { name: 'Message' });
    expect(descriptionOf(message)).toBe(`${n(CONTACT_MESSAGE_MAX)} characters left (0 of ${n(CONTACT_MESSAGE_MAX)})`);
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Vera');
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'vera@example.com');
    await userEvent.type(message, 'Hello there');
    await userEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    const email = screen.getByRole('textbox', { name: 'Email' });
    await waitFor(() => expect(descriptionOf(email)).toMatch(/^This address cannot receive mail/));
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText('The request is not valid')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('#28.15 a refusal without field messages, or a failure, still says so in the banner', async () => {
    stubApi({
      'POST /api/contact': () => ({ status: 503, body: { error: { code: 'UNAVAILABLE', message: 'The forum is busy. Please try again in a minute.' } } }),
    });
    renderWithApp(<ContactPage />, { path: '/contact', user: null });
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Vera');
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'vera@example.com');
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Hello there');
    await userEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The forum is busy. Please try again in a minute.');
  });
});
