// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { silentAnswer } from './silent-frame.ts';

/** The hidden check-sso frame: the answer it posts, and when it goes. */
const frameOf = () => document.querySelector<HTMLIFrameElement>('iframe[title="Checking the sign-in"]');
const answerFrom = (frame: HTMLIFrameElement, data: string) =>
  window.dispatchEvent(new MessageEvent('message', { data, origin: window.location.origin, source: frame.contentWindow }));

afterEach(() => frameOf()?.remove());

describe('silentAnswer', () => {
  it('answers what its page posts, and keeps the frame until the page has loaded (removed earlier, the browser aborts its request)', async () => {
    const answer = silentAnswer('about:blank#login', 5000);
    const frame = frameOf()!;
    answerFrom(frame, `${window.location.origin}/silent-check-sso.html#state=s&code=c`);
    expect(await answer).toBe(`${window.location.origin}/silent-check-sso.html#state=s&code=c`);
    expect(frame.isConnected).toBe(true);
    frame.dispatchEvent(new Event('load'));
    expect(frame.isConnected).toBe(false);
  });

  it('removes a frame that has loaded at once, and ignores a message of another frame', async () => {
    const answer = silentAnswer('about:blank#login', 5000);
    const frame = frameOf()!;
    frame.dispatchEvent(new Event('load'));
    window.dispatchEvent(new MessageEvent('message', { data: 'forged', origin: window.location.origin, source: window }));
    answerFrom(frame, 'the answer');
    expect(await answer).toBe('the answer');
    expect(frame.isConnected).toBe(false);
  });

  it('answers null when the page says nothing in time, and removes the frame', async () => {
    const answer = silentAnswer('about:blank#login', 20);
    expect(await answer).toBeNull();
    expect(frameOf()).toBeNull();
  });
});
