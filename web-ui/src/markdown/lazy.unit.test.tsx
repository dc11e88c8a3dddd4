// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import { Markdown } from './lazy.tsx';

afterEach(cleanup);

describe('Markdown while its renderer loads', () => {
  it('shows a placeholder that says it is loading, and breaks no accessibility rule (axe)', async () => {
    const { container } = render(<Markdown source="Some **text**" ownOrigin="https://forum.example" />);
    // the renderer's chunk has not come yet: the placeholder stands in for the text
    expect(screen.getByRole('status', { name: 'Loading text' })).toBeTruthy();
    const { violations } = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(violations.map(({ id, nodes }) => ({ id, nodes: nodes.map((node) => node.html) }))).toEqual([]);
    // and the text once it has
    expect(await screen.findByText('text')).toBeTruthy();
  });
});
