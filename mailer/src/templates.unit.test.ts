import { describe, expect, it } from 'vitest';
import { renderMail, type MailItem } from './templates.ts';

const frame = { brand: 'Forum', origin: 'https://forum.example', recipientName: 'Alice <3', unsubscribeToken: 'abc.def+/=' };
const reply = (more: Partial<MailItem> = {}): MailItem => ({
  kind: 'reply',
  postId: '11111111-1111-4111-8111-111111111111',
  commentId: '22222222-2222-4222-8222-222222222222',
  postTitle: 'Hooks & <script>alert(1)</script>',
  actorName: 'Bob "the builder"',
  tag: null,
  count: 1,
  reason: null,
  ...more,
});

describe('a notification email', () => {
  it("names the forum, the actor and the post in text and HTML, links to the comment, and carries RFC 8058's headers", () => {
    const mail = renderMail('reply', [reply()], frame);
    expect(mail.subject).toBe('[Forum] Bob "the builder" commented on your post “Hooks & <script>alert(1)</script>”');
    expect(mail.text).toContain('Hello Alice <3,');
    expect(mail.text).toContain('https://forum.example/post/11111111-1111-4111-8111-111111111111#comment-22222222-2222-4222-8222-222222222222');
    expect(mail.text).toContain('Stop emails of replies to your posts: https://forum.example/unsubscribe?token=abc.def%2B%2F%3D');
    expect(mail.headers).toEqual({
      'List-Unsubscribe': '<https://forum.example/api/unsubscribe?token=abc.def%2B%2F%3D>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  it('escapes every name and title in the HTML: no markup of a member reaches it', () => {
    const { html } = renderMail('reply', [reply()], frame);
    expect(html).not.toContain('<script>');
    expect(html).toContain('Hooks &#38; &#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).toContain('Bob &#34;the builder&#34;');
    expect(html).toContain('Hello Alice &#60;3,');
    expect(html).toContain('href="https://forum.example/unsubscribe?token=abc.def%2B%2F%3D"');
  });

  it('batches several of one kind under one subject; a digest lists every kind; a removed post and an erased actor read so', () => {
    const batch = renderMail('reply', [reply(), reply({ count: 5, postTitle: 'Second' })], frame);
    expect(batch.subject).toBe('[Forum] 2 new replies to your posts');
    expect(batch.text).toContain('5 new comments on your post “Second”');
    const digest = renderMail(
      'digest',
      [reply({ actorName: 'Deleted user', postTitle: null }), reply({ kind: 'followed-tag', tag: 'go', commentId: null, postTitle: 'Generics' })],
      frame,
    );
    expect(digest.subject).toBe('[Forum] Your digest: 2 notifications you have not seen');
    expect(digest.text).toContain('- Deleted user commented on your post a post that was removed\n  https://forum.example/dashboard/notifications');
    expect(digest.text).toContain('- Bob "the builder" posted “Generics” in #go\n  https://forum.example/post/11111111-1111-4111-8111-111111111111');
    expect(digest.text).toContain('Stop emails of this digest');
  });
});

describe('a moderation email (issue #43)', () => {
  const moderation = (more: Partial<MailItem>): MailItem => reply({ kind: 'moderation', commentId: null, actorName: null, postTitle: 'Hooks', ...more });

  it('says what staff did, to which post, with the reason; a suspension with its end or until lifted', () => {
    const line = (more: Partial<MailItem>) => renderMail('moderation', [moderation(more)], frame).subject;
    expect(line({ action: 'post-hidden', reason: 'Off topic' })).toBe('[Forum] A moderator hid your post “Hooks”: Off topic');
    expect(line({ action: 'post-unhidden' })).toBe('[Forum] A moderator showed your post “Hooks” again');
    expect(line({ action: 'comment-hidden', reason: 'Rude' })).toBe('[Forum] A moderator hid your comment on “Hooks”: Rude');
    expect(line({ action: 'comment-unhidden' })).toBe('[Forum] A moderator showed your comment on “Hooks” again');
    expect(line({ action: 'suspended', reason: 'Spam', until: '2026-12-02T14:00:00.000Z', postId: null, postTitle: null })).toBe(
      '[Forum] Your account is suspended until Wed, 02 Dec 2026 14:00:00 GMT: Spam',
    );
    expect(line({ action: 'suspended', reason: 'Spam', until: null })).toBe('[Forum] Your account is suspended until a moderator lifts it: Spam');
    expect(line({ action: 'suspension-lifted' })).toBe('[Forum] A moderator lifted your suspension');
    expect(renderMail('moderation', [moderation({}), moderation({})], frame).subject).toBe("[Forum] 2 new moderators' actions on your posts and account");
  });
});
