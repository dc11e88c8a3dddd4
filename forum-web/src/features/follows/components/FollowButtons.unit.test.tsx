// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { renderWithApp } from '../../../testing/render-with-app';
import { FollowPostButton } from './FollowPostButton';
import { FollowTagButton } from './FollowTagButton';

const POST_ID = '3e06aacc-67fc-4d09-87a1-4d80c088573c';

afterEach(cleanup);

const pressed = (button: HTMLElement) => button.getAttribute('aria-pressed');
/** The button once it knows the member's choice (disabled until then). */
async function ready(name: string) {
  const button = await screen.findByRole<HTMLButtonElement>('button', { name });
  await waitFor(() => expect(button.disabled).toBe(false));
  return button;
}

describe('Follow on a post', () => {
  it('is pressed and reads Following while the member follows the post; a press sends the other choice and says what it means', async () => {
    let following = false;
    const api = stubApi({
      [`GET /api/posts/${POST_ID}/follow`]: () => ({ body: { following } }),
      [`PUT /api/posts/${POST_ID}/follow`]: () => ((following = true), { body: { id: POST_ID, position: '5.1' } }),
      [`DELETE /api/posts/${POST_ID}/follow`]: () => ((following = false), { body: { id: POST_ID, position: '5.2' } }),
    });
    renderWithApp(<FollowPostButton postId={POST_ID} />);
    const button = await ready('Follow');
    expect(pressed(button)).toBe('false');

    await userEvent.click(button);
    await screen.findByText('You follow this post: new comments will notify you.');
    await waitFor(() => expect(pressed(screen.getByRole('button', { name: 'Following' }))).toBe('true'));

    await userEvent.click(await ready('Following'));
    await screen.findByText('You no longer follow this post.');
    await waitFor(() => expect(pressed(screen.getByRole('button', { name: 'Follow' }))).toBe('false'));
    expect(api.calls.filter((call) => !call.startsWith('GET'))).toEqual([`PUT /api/posts/${POST_ID}/follow`, `DELETE /api/posts/${POST_ID}/follow`]);
  });

  it('a failure leaves it as it was and says so', async () => {
    stubApi({
      [`GET /api/posts/${POST_ID}/follow`]: () => ({ body: { following: false } }),
      [`PUT /api/posts/${POST_ID}/follow`]: () => ({ status: 500, body: { error: { code: 'INTERNAL', message: 'boom' } } }),
    });
    renderWithApp(<FollowPostButton postId={POST_ID} />);
    const button = await ready('Follow');
    expect(pressed(button)).toBe('false');
    await userEvent.click(button);
    await screen.findByText('That did not work. Try again in a moment.');
    expect(pressed(screen.getByRole('button', { name: 'Follow' }))).toBe('false');
  });

  it('a visitor has none', async () => {
    const api = stubApi({});
    renderWithApp(<FollowPostButton postId={POST_ID} />, { user: null });
    await screen.findByRole('status', { name: 'Current page' });
    expect(screen.queryByRole('button')).toBeNull();
    expect(api.calls).toEqual([]);
  });
});

describe('Follow on a tag page', () => {
  it('is pressed and reads Following when the member follows the tag whatever its case; a press unfollows it by name', async () => {
    let tags = ['DevOps'];
    const api = stubApi({
      'GET /api/me/followed-tags': () => ({ body: { tags } }),
      'DELETE /api/tags/devops/follow': () => ((tags = []), { body: { id: 'devops', position: '6.1' } }),
    });
    renderWithApp(<FollowTagButton tag="devops" />);
    const button = await ready('Following #devops');
    expect(pressed(button)).toBe('true');
    await userEvent.click(button);
    await screen.findByText('You no longer follow #devops.');
    await waitFor(() => expect(pressed(screen.getByRole('button', { name: 'Follow #devops' }))).toBe('false'));
    expect(api.calls).toContain('DELETE /api/tags/devops/follow');
  });
});
