// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMarkdownRenderer, Markdown } from './lazy.tsx';

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

  it('renders the text at once, without a placeholder, once the renderer has been loaded ahead (a page that will show text asks for it early)', async () => {
    await loadMarkdownRenderer();
    render(<Markdown source="Loaded **ahead**" ownOrigin="https://forum.example" />);
    // in the first render: no frame of placeholder for the text to push down
    expect(screen.queryByRole('status', { name: 'Loading text' })).toBeNull();
    expect(screen.getByText('ahead')).toBeTruthy();
  });
});
