import { lazy, type ComponentType } from 'react';

/** A component in a chunk of its own, with `preload` to load it ahead of its first render. */
export type Preloadable<P> = ComponentType<P> & { preload: () => Promise<void> };

/**
 * The component `load` imports, as one that loads its chunk when first rendered (it suspends
 * meanwhile: a Suspense above shows its fallback or, on a page the server rendered, keeps the
 * server's markup until the chunk is here and hydrates it then) or ahead of that, by `preload`.
 * Once loaded it renders at once, without suspending.
 *
 * On a page the server rendered, a change that reaches the part before its chunk while it is not a
 * transition (the sign-in check's answer is one: web-auth's provider) makes React drop the server's
 * markup and show the fallback until the chunk comes: each part's fallback is as large as the part.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  const preload = async () => {
    loaded ??= await load();
  };
  const Lazy = lazy(async () => {
    await preload();
    return { default: loaded! };
  });
  function Preloaded(props: P) {
    const Loaded = loaded ?? Lazy;
    return <Loaded {...props} />;
  }
  return Object.assign(Preloaded, { preload });
}
