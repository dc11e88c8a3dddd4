// @vitest-environment jsdom
import { getContrastRatio } from '@mui/material/styles';
import { cleanup, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { PersonAvatar } from './PersonAvatar.tsx';

afterEach(cleanup);

const shown = (element: ReactElement) => render(element).container.firstElementChild as HTMLElement;

describe("a person's avatar", () => {
  it('without a photo, the first letter of the name in capitals (a whole emoji, not half of it), "?" for a blank name', () => {
    expect(shown(<PersonAvatar name="  ada Lovelace" />).textContent).toBe('A');
    cleanup();
    expect(shown(<PersonAvatar name="😀 Smiles" photo="" />).textContent).toBe('😀');
    cleanup();
    expect(shown(<PersonAvatar name="   " />).textContent).toBe('?');
  });

  it('the letter is white on a colour at 4.5:1 or more (WCAG AA at any size), hidden from assistive technology', () => {
    const avatar = shown(<PersonAvatar name="Bob" size={28} />);
    const style = getComputedStyle(avatar);
    expect(getContrastRatio(style.color, style.backgroundColor)).toBeGreaterThanOrEqual(4.5);
    expect(avatar.getAttribute('aria-hidden')).toBe('true');
  });

  it('with a photo, the photo (sent without a referrer), and no letter', () => {
    const avatar = shown(<PersonAvatar name="Cy" photo="https://img.example/cy.png" />);
    const img = avatar.querySelector('img');
    expect(img?.getAttribute('src')).toBe('https://img.example/cy.png');
    expect(img?.getAttribute('referrerpolicy')).toBe('no-referrer');
    expect(avatar.textContent).toBe('');
  });
});
