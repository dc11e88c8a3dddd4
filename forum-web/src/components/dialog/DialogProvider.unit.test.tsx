// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { DialogProvider, useDialogs } from './DialogProvider';

afterEach(cleanup);

function Remove({ delayMs }: { delayMs: number }) {
  const dialogs = useDialogs();
  const remove = async () => {
    if (!(await dialogs.confirm({ title: 'Are you sure?', message: "You won't be able to revert this!", confirmLabel: 'Yes, delete it!' }))) return;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    await dialogs.alert({ title: 'Deleted!', message: 'Your post has been deleted.' });
  };
  return (
    <button type="button" onClick={() => void remove()}>
      Delete
    </button>
  );
}

describe('the dialogs', () => {
  it.each([0, 5, 50, 400])('a message right after a confirmation (%i ms later) leaves the page usable once closed', async (delayMs) => {
    render(
      <DialogProvider>
        <Remove delayMs={delayMs} />
      </DialogProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    // the first dialog of a run loads its module: on a busy machine that takes more than a second
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Are you sure?' })).getByRole('button', { name: 'Yes, delete it!' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Deleted!' })).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // nothing of the page is left hidden from assistive technology (getByRole skips aria-hidden)
    await waitFor(() => expect(screen.getByRole('button', { name: 'Delete' })).toBeTruthy());
  });
});
