import type { StreamTopic } from '@forum/contracts';
import { createContext, useContext, useEffect, useRef, type ReactNode } from 'react';
import type { LiveListener, LiveStream } from './live-stream';

const LiveContext = createContext<LiveStream | null>(null);

/** Gives the tab's one change stream to the components below. */
export function LiveProvider({ stream, children }: { stream: LiveStream; children: ReactNode }) {
  return <LiveContext.Provider value={stream}>{children}</LiveContext.Provider>;
}

/**
 * While the component is mounted, hands `onMessage` every message of `topic` (none when null).
 * The stream follows the union of the mounted components' topics; `onMessage` may change at each
 * render without opening the stream again.
 */
export function useLiveTopic(topic: StreamTopic | null, onMessage: LiveListener): void {
  const stream = useContext(LiveContext);
  const handler = useRef(onMessage);
  useEffect(() => {
    handler.current = onMessage;
  });
  useEffect(() => {
    if (!stream || topic === null) return;
    return stream.subscribe(topic, (message) => handler.current(message));
  }, [stream, topic]);
}
