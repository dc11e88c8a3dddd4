// @vitest-environment jsdom
import { act, lazy, Suspense, type ReactNode } from 'react';
import { hydrateRoot, createRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { NOT_KNOWN_YET, type Auth, type AuthState } from './auth.ts';
import { AuthProvider, useAuthState } from './react.ts';

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean;
}
globalThis.IS_REACT_ACT_ENVIRONMENT = true;

/** An Auth whose state the test sets; only what the React side reads. */
function authAt(initial: AuthState) {
  let state = initial;
  const listeners = new Set<(state: AuthState) => void>();
  const auth = {
    getState: () => state,
    onChange: (listener: (state: AuthState) => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  } as unknown as Auth;
  const set = (next: AuthState) => {
    state = next;
    for (const listener of listeners) listener(state);
  };
  return { auth, set };
}

const SIGNED_OUT: AuthState = { status: 'anonymous', user: null, error: null };
const ALICE: AuthState = {
  status: 'authenticated',
  user: { id: 'alice', name: 'Alice', email: 'alice@forum.local', picture: null, roles: [] },
  error: null,
} as unknown as AuthState;

/** What the sign-in state shows: the status, as text. */
function Status() {
  return <p>{useAuthState().status}</p>;
}

let root: Root | undefined;
let container: HTMLElement | undefined;
afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
  root = undefined;
});

function mount(html = '') {
  container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  return container;
}

describe('useAuthState under AuthProvider', () => {
  it('a page rendered on a server hydrates with the state it showed (not known yet), then shows the known one', () => {
    const server = authAt(NOT_KNOWN_YET);
    const html = renderToString(
      <AuthProvider auth={server.auth} hydrating>
        <Status />
      </AuthProvider>,
    );
    expect(html).toBe('<p>loading</p>');
    // the sign-in check answered before the browser hydrated
    const browser = authAt(SIGNED_OUT);
    const errors: unknown[] = [];
    const element = mount(html);
    const paragraph = element.querySelector('p');
    act(() => {
      root = hydrateRoot(
        element,
        <AuthProvider auth={browser.auth} hydrating>
          <Status />
        </AuthProvider>,
        { onRecoverableError: (error) => errors.push(error) },
      );
    });
    expect(errors).toEqual([]);
    expect(element.querySelector('p')).toBe(paragraph);
    expect(element.textContent).toBe('anonymous');
  });

  it('a page the browser renders itself starts from the known state', () => {
    const { auth } = authAt(ALICE);
    const seen: string[] = [];
    function Seen() {
      seen.push(useAuthState().status);
      return null;
    }
    act(() => {
      root = createRoot(mount());
      root.render(
        <AuthProvider auth={auth}>
          <Seen />
        </AuthProvider>,
      );
    });
    expect(seen[0]).toBe('authenticated');
    expect(new Set(seen)).toEqual(new Set(['authenticated']));
  });

  it('a change of state re-renders as a transition: what it shows next keeps the page until it is ready (no fallback in between)', async () => {
    const { auth, set } = authAt(SIGNED_OUT);
    let arrive: (module: { default: () => ReactNode }) => void = () => {};
    const loaded = new Promise<{ default: () => ReactNode }>((resolve) => (arrive = resolve));
    const MembersPart = lazy(() => loaded);
    function Page() {
      return useAuthState().status === 'authenticated' ? <MembersPart /> : <p>for visitors</p>;
    }
    const element = mount();
    act(() => {
      root = createRoot(element);
      root.render(
        <AuthProvider auth={auth}>
          <Suspense fallback={<p>spinner</p>}>
            <Page />
          </Suspense>
        </AuthProvider>,
      );
    });
    expect(element.textContent).toBe('for visitors');
    // a synchronous update would put the Suspense fallback in place of the page while the part loads
    act(() => set(ALICE));
    expect(element.textContent).toBe('for visitors');
    await act(async () => {
      arrive({ default: () => <p>for members</p> });
      await loaded;
    });
    expect(element.textContent).toBe('for members');
  });
});
