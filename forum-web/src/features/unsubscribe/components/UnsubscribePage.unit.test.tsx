// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { renderWithApp } from '../../../testing/render-with-app';
import { UnsubscribePage } from './UnsubscribePage';

afterEach(cleanup);

const renderPage = (search: string) => renderWithApp(<UnsubscribePage />, { path: `/unsubscribe${search}`, route: '/unsubscribe', user: null });

describe('the unsubscribe page', () => {
  it('one button posts the link’s token, with no sign-in, then confirms', async () => {
    const asked: string[] = [];
    stubApi({
      'POST /api/unsubscribe': ({ url, headers }) => {
        asked.push(`${new URL(url).searchParams.get('token')} ${headers.get('Authorization') ?? 'anonymous'}`);
        return { body: { kinds: ['reply'] } };
      },
    });
    renderPage('?token=abc.def');
    await userEvent.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    await screen.findByText(/You are unsubscribed/);
    expect(asked).toEqual(['abc.def anonymous']);
  });

  it('a link the forum did not send says so; a link with no token too', async () => {
    stubApi({
      'POST /api/unsubscribe': () => ({ status: 400, body: { error: { code: 'UNSUBSCRIBE_LINK_INVALID', message: 'The link is not one the forum sent' } } }),
    });
    const view = renderPage('?token=forged');
    await userEvent.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    await screen.findByText(/This unsubscribe link is not valid/);
    view.unmount();
    renderPage('');
    await screen.findByText(/This unsubscribe link is not valid/);
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
  });
});
