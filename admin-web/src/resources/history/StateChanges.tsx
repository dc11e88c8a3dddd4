import type { HistoryKind, HistoryState, StateChange } from '@forum/contracts';
import { Box, Typography } from '@mui/material';

/** A value of a state in a few characters: JSON, its end cut off past `max`. */
const shortValue = (value: unknown, max = 40) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

/** One change in words: `title: "Owls" → "Owls, edited"`, `added handle: "ann"`, `removed pendingPurchase`. */
export function changeText(change: StateChange, max?: number): string {
  const field = change.path || 'the state';
  if (change.change === 'added') return `added ${field}: ${shortValue(change.after, max)}`;
  if (change.change === 'removed') return `removed ${field} (was ${shortValue(change.before, max)})`;
  return `${field}: ${shortValue(change.before, max)} → ${shortValue(change.after, max)}`;
}

const mark = { added: '+', changed: '~', removed: '−' } as const;

/**
 * What an event changed in the user's or the post's state, one line a field (at most `limit`,
 * then how many more), or that it changed nothing of it (an event of another stream, say).
 */
export function ChangesSummary({ entry, kind, n, limit = 3 }: { entry: HistoryState | undefined; kind: HistoryKind; n: number; limit?: number }) {
  if (!entry) return null;
  const { changes } = entry;
  if (changes.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No change to the {kind}
      </Typography>
    );
  }
  const shown = changes.slice(0, limit);
  return (
    <Box component="ul" aria-label={`Changes by event ${n}`} sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {shown.map((change) => (
        <Typography
          key={`${change.change}:${change.path}`}
          component="li"
          variant="body2"
          sx={{ fontFamily: 'monospace', fontSize: 12.5, overflowWrap: 'anywhere' }}
        >
          <Box
            component="span"
            aria-hidden
            sx={{ color: change.change === 'removed' ? 'error.main' : change.change === 'added' ? 'success.dark' : 'info.dark', mr: 0.5 }}
          >
            {mark[change.change]}
          </Box>
          {changeText(change)}
        </Typography>
      ))}
      {changes.length > limit && (
        <Typography component="li" variant="caption" color="text.secondary">
          and {changes.length - limit} more
        </Typography>
      )}
    </Box>
  );
}

/** The state after an event, in full, with every change it made (opened with the event's data). */
export function StateAfter({ entry, kind, n, type }: { entry: HistoryState | undefined; kind: HistoryKind; n: number; type: string }) {
  if (!entry) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        The state of the {kind} after this event could not be loaded.
      </Typography>
    );
  }
  return (
    <Box sx={{ mt: 1.5 }}>
      <Typography variant="subtitle2" component="h2">
        The {kind}&rsquo;s state after event {n}
      </Typography>
      <ChangesSummary entry={entry} kind={kind} n={n} limit={Infinity} />
      <Box
        component="pre"
        aria-label={`State of the ${kind} after event ${n}, ${type}`}
        tabIndex={0}
        sx={{ m: 0, mt: 0.5, p: 1.5, bgcolor: 'grey.100', borderRadius: 1, overflowX: 'auto', fontSize: 13, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
      >
        {JSON.stringify(entry.state, null, 2)}
      </Box>
    </Box>
  );
}
