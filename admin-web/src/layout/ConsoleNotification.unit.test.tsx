// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, memoryStore, useNotify } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { i18nProvider } from '../i18nProvider';
import { ConsoleNotification } from './ConsoleNotification';

afterEach(cleanup);

function Notifier() {
  const notify = useNotify();
  return (
    <>
      <button type="button" onClick={() => notify('Announcement published', { type: 'success' })}>
        Publish
      </button>
      <button type="button" onClick={() => notify('Failed to publish', { type: 'error' })}>
        Fail
      </button>
    </>
  );
}

describe('the console’s toasts', () => {
  it('shows nothing until something is said, then react-admin’s toast (loaded then), one after another', async () => {
    render(
      <MemoryRouter>
        <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
          <Notifier />
          <ConsoleNotification />
        </AdminContext>
      </MemoryRouter>,
    );
    expect(document.querySelector('.MuiSnackbar-root')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('Announcement published')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Announcement published');
    // a second toast follows once the first has gone (the click elsewhere closes it)
    await userEvent.click(screen.getByRole('button', { name: 'Fail' }));
    expect(await screen.findByText('Failed to publish', {}, { timeout: 8000 })).toBeTruthy();
  }, 15_000);
});
