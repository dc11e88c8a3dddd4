import type { ProjectionStatus } from '@forum/contracts';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

/** A build of a projection as the list reads it (GET /api/admin/projections, keyed `<name>-<build>`). */
export type ProjectionRecord = ProjectionStatus & { id: string };

/** How often the list is read again while a rebuild is under way. */
export const POLL_MS = 1500;

/** Share of the log a build has applied (0–100), from its lag behind the head. */
export function progressOf(build: Pick<ProjectionStatus, 'head' | 'lag'>): number {
  const head = Number(build.head);
  if (!Number.isFinite(head) || head <= 0) return 100;
  return Math.max(0, Math.min(100, Math.floor(((head - build.lag) / head) * 100)));
}

interface Rebuilds {
  /** The projections whose rebuild this console started, each with the build that was live then. */
  watching: ReadonlyMap<string, number>;
  watch: (name: string, liveBuild: number) => void;
  done: (name: string) => void;
  /** What the page says about the rebuilds (a polite live region). */
  status: string;
  say: (text: string) => void;
}

const RebuildsContext = createContext<Rebuilds | null>(null);

export function RebuildsProvider({ children }: { children: ReactNode }) {
  const [watching, setWatching] = useState<ReadonlyMap<string, number>>(new Map());
  const [status, say] = useState('');
  const watch = useCallback((name: string, liveBuild: number) => setWatching((current) => new Map(current).set(name, liveBuild)), []);
  const done = useCallback(
    (name: string) =>
      setWatching((current) => {
        const next = new Map(current);
        next.delete(name);
        return next;
      }),
    [],
  );
  const value = useMemo(() => ({ watching, watch, done, status, say }), [watching, watch, done, status]);
  return <RebuildsContext.Provider value={value}>{children}</RebuildsContext.Provider>;
}

export function useRebuilds(): Rebuilds {
  const rebuilds = useContext(RebuildsContext);
  if (!rebuilds) throw new Error('useRebuilds needs a RebuildsProvider');
  return rebuilds;
}
