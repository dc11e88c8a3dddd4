// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithApp } from '../../testing/render-with-app';
import { NavSearch } from './NavSearch';

afterEach(cleanup);

/**
 * The bar's search box. jsdom applies no media queries, so the wide screen's field and the phone's
 * button are both there: these tests drive the phone's, the button 'Search posts' that opens the
 * same form over the bar.
 */
async function openSearch() {
  const opener = screen.getByRole('button', { name: 'Search posts' });
  await userEvent.click(opener);
  const over = document.getElementById(opener.getAttribute('aria-controls')!)!;
  return { opener, over, field: within(over).getByRole<HTMLInputElement>('searchbox', { name: 'Search posts' }) };
}
describe("the bar's search box", () => {
  it('opens from its button, takes the words and Enter to the results page, closes and gives the focus back', async () => {
    const { router } = renderWithApp(<NavSearch />, { path: '/about', route: '*' });
    const { opener, field } = await openSearch();
    expect(document.activeElement).toBe(field);
    await userEvent.type(field, '  ocelot & margay {Enter}');
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/search?q=ocelot+%26+margay');
    expect(opener.getAttribute('aria-expanded')).toBe('false');
    expect(field.isConnected).toBe(false);
    expect(document.activeElement).toBe(opener);
  });

  it('on the results page holds the words searched; Escape closes it', async () => {
    renderWithApp(<NavSearch />, { path: '/search?q=ocelot', route: '*' });
    const { field } = await openSearch();
    expect(field.value).toBe('ocelot');
    await userEvent.keyboard('{Escape}');
    expect(field.isConnected).toBe(false);
  });

  it('says what is wrong with no words or too many characters, and stays', async () => {
    const { router } = renderWithApp(<NavSearch />, { path: '/about', route: '*' });
    const { over, field } = await openSearch();
    await userEvent.type(field, '   {Enter}');
    expect(within(over).getByRole('alert').textContent).toBe('Type a word to search for');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    await userEvent.click(field);
    await userEvent.paste('é'.repeat(201));
    expect(within(over).queryByRole('alert')).toBeNull();
    await userEvent.keyboard('{Enter}');
    expect(within(over).getByRole('alert').textContent).toBe('Search text must be at most 200 characters (this is 201)');
    expect(router.state.location.pathname).toBe('/about');
  });
});
