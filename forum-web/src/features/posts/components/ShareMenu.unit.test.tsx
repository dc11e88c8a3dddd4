// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithApp } from '../../../testing/render-with-app';
import { ShareMenu } from './ShareMenu';

afterEach(cleanup);

describe('the share menu', () => {
  it('offers Facebook and WhatsApp share links for the post URL, each opening a new window without access to this page', async () => {
    const url = 'http://localhost:3000/post/p1';
    renderWithApp(<ShareMenu url={url} title="Zero-downtime deploys" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Share' }));

    const facebook = await screen.findByRole('menuitem', { name: 'Share on Facebook' });
    const whatsapp = screen.getByRole('menuitem', { name: 'Share on WhatsApp' });
    expect(facebook.getAttribute('href')).toBe(`https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`);
    expect(whatsapp.getAttribute('href')).toContain(encodeURIComponent(url));
    for (const link of [facebook, whatsapp]) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toContain('noopener');
    }
  });
});
