// @vitest-environment jsdom
import type { PostSort } from '@forum/contracts';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, startTransition, use, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { SortSelect } from './SortSelect';

afterEach(cleanup);

/** A list that waits for `ready` before it shows a sort other than the newest (as a page loading its posts). */
function List({ sort, ready }: { sort: PostSort; ready: Promise<void> }) {
  if (sort !== 'newest') use(ready);
  return <p>Sorted by {sort}</p>;
}

/** The selector over a list, the sort changed as a transition (as react-router's navigation is one). */
function Sorted({ ready }: { ready: Promise<void> }) {
  const [sort, setSort] = useState<PostSort>('newest');
  return (
    <>
      <SortSelect value={sort} onChange={(next) => startTransition(() => setSort(next))} />
      <Suspense fallback={<p>Loading</p>}>
        <List sort={sort} ready={ready} />
      </Suspense>
    </>
  );
}

describe('SortSelect', () => {
  it('shows the sort chosen while the list for it is on its way, not the one before', async () => {
    let arrive!: () => void;
    const ready = new Promise<void>((resolve) => (arrive = resolve));
    render(<Sorted ready={ready} />);
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Sort by' });

    // chosen as a person does; the whole of it awaited (React suspends the transition in it)
    await act(async () => {
      await userEvent.selectOptions(select, 'Popularity');
    });
    // the transition waits for the list: the page keeps the newest posts, the selector says what comes
    expect(screen.getByText('Sorted by newest')).toBeTruthy();
    expect(select.value).toBe('popularity');

    await act(async () => {
      arrive();
      await ready;
    });
    expect(screen.getByText('Sorted by popularity')).toBeTruthy();
    expect(select.value).toBe('popularity');
  });
});
