import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import type { HistoryKind } from '@forum/contracts';
import { Link, useBasename } from 'react-admin';

/** The console's page of a user's or a post's events (/admin/history/:kind/:id). */
export const useHistoryPath = () => {
  const basename = useBasename();
  return (kind: HistoryKind, id: string) => `${basename}/history/${kind}/${encodeURIComponent(id)}`;
};

/** A user id of the forum, as opposed to the system's or an operator's (`system:…`, `operator:…`): one with a history page. */
export const isUserId = (actor: string) => actor.length > 0 && !actor.includes(':');

/**
 * 'History' (visible), named for what it opens ('History of post 3f2a…'): a link in a row that
 * names a user or a post.
 */
export function HistoryLink({ kind, id, name }: { kind: HistoryKind; id: string; name?: string }) {
  const historyPath = useHistoryPath();
  return (
    <Link
      to={historyPath(kind, id)}
      variant="body2"
      aria-label={`History of ${name ?? `${kind} ${id}`}`}
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, whiteSpace: 'nowrap' }}
    >
      <HistoryOutlined sx={{ fontSize: 16 }} aria-hidden />
      History
    </Link>
  );
}
