import type { Announcement, Notifications } from '@forum/contracts';
import type { NewUser, TestForum } from '@forum/infra/testing';
import { DEMO_PASSWORD } from '@forum/infra/embedded';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  chromiumMissing,
  chromiumMissingMessage,
  journeySteps,
  PHONE,
  seriousA11yViolations,
  setUpJourneys,
  signInAtRealm,
  snapshot,
} from './support.ts';

/**
 * One member on two devices (issue #31 item 5): a laptop (1280×800) and a phone (390×844), each a
 * browser of its own. An admin publishes an announcement; both bells count it; the member opens
 * the bell on the phone; the laptop, reloaded, counts nothing: the read state is the server's.
 * axe-core finds no serious or critical violation on either.
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/announcements-read.e2e.test.ts'));

describe.skipIf(chromiumMissing)('a member’s announcements read on one device are read on the other, in Chromium', () => {
  const journey = setUpJourneys('announcements-read');
  const { expectAccessible, readModelsReach, signInAt, toast } = journeySteps(journey);
  let forum: TestForum;
  let laptop: Page;
  beforeEach(() => {
    ({ forum, page: laptop } = journey);
  });

  /** The member's read mark as the read side has it. */
  const markOf = async (member: Pick<NewUser, 'token'>) =>
    ((await (await forum.api('/api/me/notifications', { token: member.token })).json()) as Notifications).announcementsReadUpTo;

  it('the phone opens the bell; the laptop, reloaded, shows no badge', { timeout: 120_000 }, async () => {
    const member = await forum.newUser('Mira Twodevices');
    await signInAt(member, '/dashboard');
    await laptop.goto(`${forum.url}/`);
    await laptop.getByRole('heading', { name: 'Welcome to the Forum' }).waitFor();
    await laptop.getByRole('button', { name: 'Notifications', exact: true }).waitFor();

    const phoneContext = await journey.browser.newContext({ viewport: PHONE, reducedMotion: 'reduce' });
    try {
      const phone = await phoneContext.newPage();
      await phone.goto(`${forum.url}/dashboard`);
      await signInAtRealm(phone, member.email, member.password);
      await phone.waitForURL((url) => url.pathname === '/dashboard');
      await phone.goto(`${forum.url}/`);
      await phone.getByRole('heading', { name: 'Welcome to the Forum' }).waitFor();
      await phone.getByRole('button', { name: 'Notifications', exact: true }).waitFor();

      const admin = await forum.demoAdmin();
      const title = `Read-only hour on Sunday ${Date.now()}`;
      const created = await forum.api('/api/admin/announcements', {
        method: 'POST',
        token: admin.token,
        json: { title, description: 'The forum is read-only from 02:00 to 03:00 UTC.' },
      });
      expect(created.status).toBe(201);
      const { position } = (await created.json()) as { position: string };
      await readModelsReach(position);

      // both devices count it
      await Promise.all([laptop.reload(), phone.reload()]);
      await laptop.getByRole('button', { name: 'Notifications, 1 new' }).waitFor();
      const phoneBell = phone.getByRole('button', { name: 'Notifications, 1 new' });
      await phoneBell.waitFor();
      await expectAccessible('the laptop with an unread announcement');
      await snapshot(laptop, 'announcements-read-laptop-badge');
      await snapshot(phone, 'announcements-read-phone-badge');

      // the member reads it on the phone
      await phoneBell.click();
      const panel = phone.getByRole('dialog', { name: 'Notifications' });
      await panel.getByText(`${title} (new)`).waitFor();
      expect(await seriousA11yViolations(phone), 'axe on the phone’s open bell').toEqual([]);
      await snapshot(phone, 'announcements-read-phone-panel');
      await phone.keyboard.press('Escape');
      await phone.getByRole('button', { name: 'Notifications', exact: true }).waitFor();

      // once the read side has the phone's mark, the laptop agrees after a reload
      const announcements = (await (await forum.api('/api/announcements')).json()) as Announcement[];
      const published = announcements.find((a) => a.title === title)!.date;
      await expect.poll(() => markOf(member), { timeout: 15_000 }).toBe(published);
      await laptop.reload();
      await laptop.getByRole('heading', { name: 'Welcome to the Forum' }).waitFor();
      await laptop.getByRole('region', { name: 'Announcements' }).getByRole('heading', { name: title }).waitFor();
      await laptop.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
      expect(await laptop.getByRole('button', { name: /^Notifications, \d+ new$/ }).count()).toBe(0);
      await expectAccessible('the laptop after the phone read the announcement');
      await snapshot(laptop, 'announcements-read-laptop-after');
      // the laptop's bell still lists it, no longer as new
      await laptop.getByRole('button', { name: 'Notifications', exact: true }).click();
      const laptopPanel = laptop.getByRole('dialog', { name: 'Notifications' });
      await laptopPanel.getByText(title, { exact: true }).waitFor();
      expect(await laptopPanel.getByText(`${title} (new)`).count()).toBe(0);
    } finally {
      await phoneContext.close();
    }
  });

  it('#39 edge 18: an admin who posts an announcement in the console finds it read in their own bell, and no one else does', { timeout: 180_000 }, async () => {
    const member = await forum.newUser('Nell Newsreader');
    await laptop.goto(`${forum.url}/admin/make-announcement`);
    await signInAtRealm(laptop, ADMIN_EMAIL, DEMO_PASSWORD);
    await laptop.waitForURL((url) => url.pathname === '/admin/make-announcement');
    const title = `Written by the admin ${Date.now()}`;
    await laptop.getByRole('textbox', { name: 'Title' }).fill(title);
    await laptop.getByRole('textbox', { name: 'Description' }).fill('Nothing new to the one who wrote it.');
    await laptop.getByRole('button', { name: 'Post Announcement' }).click();
    await toast('Announcement created successfully').waitFor({ timeout: 15_000 });

    // once the read side has it, the admin's mark is at their own announcement
    const admin = await forum.demoAdmin();
    const published = async () => ((await (await forum.api('/api/announcements')).json()) as Announcement[]).find((a) => a.title === title)?.date;
    await expect.poll(published, { timeout: 15_000 }).toBeDefined();
    await expect.poll(() => markOf(admin), { timeout: 15_000 }).toBe(await published());
    await laptop.goto(`${forum.url}/`);
    await laptop.getByRole('region', { name: 'Announcements' }).getByRole('heading', { name: title }).waitFor();
    await laptop.getByRole('button', { name: 'Notifications', exact: true }).click();
    const panel = laptop.getByRole('dialog', { name: 'Notifications' });
    await panel.getByText(title, { exact: true }).waitFor();
    expect(await panel.getByText(`${title} (new)`).count()).toBe(0);
    await expectAccessible('the admin’s own bell, open');
    await snapshot(laptop, 'announcements-read-own-announcement');

    // it is the admin's alone: a member has read nothing
    expect(await markOf(member)).toBeNull();
  });
});
