// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { NotFound } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { AuditList } from './resources/audit/AuditList';
import { UserList } from './resources/manage-users/UserList';
import { PostList } from './resources/posts/PostList';
import { ProjectionList } from './resources/projections/ProjectionList';
import { atPhoneWidth, renderConsole, respond, stubServer } from './testing/console';

/** Every list of the API answers no rows. */
const emptyServer = () =>
  stubServer(({ url }) => {
    const resource = url.pathname.split('/').at(-1);
    return respond([], 200, { 'Content-Range': `${resource} */0` });
  });

/** A list page at `path` (its query may hold react-admin's `filter`) in its resource's context. */
const renderList = (element: ReactElement, resource: string, filter?: Record<string, string>) =>
  renderConsole(element, { path: `/admin/${resource}${filter ? `?filter=${encodeURIComponent(JSON.stringify(filter))}` : ''}`, resource });

const said = (text: string) => screen.findByText(text);

describe("the console's stock texts", () => {
  it("#28.16 a search on Manage Users that finds no one says 'No users match your search.'", async () => {
    emptyServer();
    renderList(<UserList />, 'manage-users', { q: 'nobody' });
    expect(await said('No users match your search.')).toBeTruthy();
    expect(screen.queryByText(/using the current filters/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Clear filters' })).toBeTruthy();
  });

  it("#28.16 a search on Manage Users that finds no one says 'No users match your search.' on a phone too", async () => {
    atPhoneWidth();
    emptyServer();
    renderList(<UserList />, 'manage-users', { q: 'nobody' });
    expect(await said('No users match your search.')).toBeTruthy();
  });

  it('#28.16 filters of Staff actions that match nothing say so in its own words', async () => {
    emptyServer();
    renderList(<AuditList />, 'audit', { type: 'TagCreated' });
    expect(await said('No staff actions match these filters.')).toBeTruthy();
  });

  it.each([
    ['manage-users', <UserList />, 'No users yet.'],
    ['audit', <AuditList />, 'No staff actions yet.'],
    ['projections', <ProjectionList />, 'No projections yet.'],
    ['posts', <PostList />, 'No posts yet.'],
  ])("#28.16 the empty %s list says so in plain words, not with the resource's name", async (resource, element, text) => {
    emptyServer();
    renderList(element, resource);
    expect(await said(text)).toBeTruthy();
  });

  it("#28.16 an address that leads nowhere says 'Page not found' and one plain sentence that ends in a single full stop", async () => {
    renderConsole(<NotFound />, { path: '/admin/no-such-page' });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    const sentence = screen.getByText(/address/);
    expect(sentence.textContent).toBe('There is no page of the console at this address. Check the address, or go back to where you were.');
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeTruthy();
  });
});
