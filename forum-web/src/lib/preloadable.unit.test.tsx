// @vitest-environment jsdom
import { act, createContext, startTransition, Suspense, useContext, useEffect, useState } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { preloadable } from './preloadable';

// React's act() outside a testing library
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** What the page's providers pass down and change after hydrating (the sign-in check's answer, in the app). */
const Who = createContext('checking');

function Counter() {
  const who = useContext(Who);
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount(count + 1)}>
      {who}: {count}
    </button>
  );
}

/** A part whose chunk comes when `arrive` is called (it answers once the chunk is there). */
function partArrivingLater() {
  let resolve!: (component: typeof Counter) => void;
  const chunk = new Promise<typeof Counter>((done) => (resolve = done));
  const arrive = () => {
    resolve(Counter);
    return chunk.then(() => undefined);
  };
  return { Part: preloadable(() => chunk), arrive };
}

function Page({ Part, who }: { Part: ReturnType<typeof preloadable<object>>; who: string }) {
  return (
    <Who.Provider value={who}>
      <main>
        <Suspense fallback={<p>the fallback</p>}>
          <Part />
        </Suspense>
      </main>
    </Who.Provider>
  );
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('a preloadable part', () => {
  it('on a page the server rendered, keeps the server’s markup while its chunk loads, even through a change above it, and hydrates it once its chunk is here', async () => {
    // the server has every part's code
    const server = partArrivingLater();
    await server.arrive();
    await server.Part.preload();
    const html = renderToString(<Page Part={server.Part} who="checking" />);
    // the part inside its boundary's markers, as hydration finds it
    expect(html).toBe('<main><!--$--><button type="button">checking<!-- -->: <!-- -->0</button><!--/$--></main>');

    // the browser: the part's chunk has not come
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const serverButton = container.querySelector('button')!;
    const browser = partArrivingLater();
    const page: { setWho?: (who: string) => void } = {};
    function App() {
      const [who, setWho] = useState('checking');
      useEffect(() => void (page.setWho = setWho), []);
      return <Page Part={browser.Part} who={who} />;
    }
    const root = await act(() => hydrateRoot(container, <App />));
    // the sign-in check answers, as a transition (web-auth's provider), before the part's chunk
    act(() => startTransition(() => page.setWho!('a visitor')));
    expect(container.querySelector('button')).toBe(serverButton);
    expect(container.textContent).toBe('checking: 0');
    expect(container.textContent).not.toContain('the fallback');

    await act(() => browser.arrive());
    // the same element, hydrated: it takes clicks and shows the change
    expect(container.querySelector('button')).toBe(serverButton);
    expect(container.textContent).toBe('a visitor: 0');
    act(() => serverButton.click());
    expect(container.textContent).toBe('a visitor: 1');
    act(() => root.unmount());
  });

  it('rendered in the browser, shows the fallback until its chunk is here; once loaded it renders at once', async () => {
    const { Part, arrive } = partArrivingLater();
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    act(() => root.render(<Page Part={Part} who="a visitor" />));
    expect(container.textContent).toBe('the fallback');
    await act(() => arrive());
    expect(container.textContent).toBe('a visitor: 0');
    act(() => root.unmount());

    // a second page that shows it: no fallback at all
    const again = createRoot(container);
    act(() => again.render(<Page Part={Part} who="a visitor" />));
    expect(container.textContent).toBe('a visitor: 0');
    act(() => again.unmount());
  });
});
