import { Box, Chip, Link, Stack, Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import type { QueueRecord } from '../../dataProvider';
import { FEEDBACK_LABELS } from '../reported-comments/groupReports';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const formatTime = (iso: string) => dateTime.format(new Date(iso));

export const ROLE_LABELS = { user: 'Member', moderator: 'Moderator', admin: 'Admin' } as const;

const HANDLED_LABELS = { dismissed: 'Dismissed', hidden: 'Hidden', deleted: 'Deleted', warned: 'Author warned', suspended: 'Author suspended' } as const;

/** The queue row's accessible name: what it is and where. */
export const itemLabel = (item: QueueRecord) => `${item.kind === 'post' ? 'Post' : 'Comment on'} “${item.postTitle}”`;

/** Kind chip, the post's title (a link to the forum's post, in a new tab), the text, and its state now. */
export function ItemField() {
  const item = useRecordContext<QueueRecord>();
  if (!item) return null;
  return (
    <Box sx={{ minWidth: 200, maxWidth: 420 }}>
      <Stack direction="row" spacing={0.5} sx={{ mb: 0.5, flexWrap: 'wrap', alignItems: 'center' }}>
        <Chip size="small" label={item.kind === 'post' ? 'Post' : 'Comment'} color={item.kind === 'post' ? 'primary' : 'default'} variant="outlined" />
        {item.hidden && <Chip size="small" label="Hidden" />}
        {item.deleted && <Chip size="small" label="Deleted" />}
        {item.warned && <Chip size="small" label="Warned" />}
      </Stack>
      <Link href={`/post/${encodeURIComponent(item.postId)}`} target="_blank" rel="noopener noreferrer" variant="body2" sx={{ fontWeight: 600 }}>
        {item.postTitle}
        <Box component="span" sx={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
          {' '}
          (opens in a new tab)
        </Box>
      </Link>
      <Typography variant="body2" color="text.secondary" sx={{ display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
        {item.text}
      </Typography>
    </Box>
  );
}

/** The author: name, role, email for admins, and a suspension in force. */
export function AuthorField() {
  const item = useRecordContext<QueueRecord>();
  if (!item) return null;
  const { author } = item;
  return (
    <Box sx={{ minWidth: 120 }}>
      <Typography variant="body2">{author.name}</Typography>
      {author.email && (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
          {author.email}
        </Typography>
      )}
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
        {ROLE_LABELS[author.role]}
      </Typography>
      {author.suspendedUntil !== undefined && author.suspendedUntil !== null && (
        <Chip size="small" color="warning" variant="outlined" label={`Suspended until ${formatTime(author.suspendedUntil)}`} />
      )}
    </Box>
  );
}

/** How many reports, the feedbacks counted, and who reported. */
export function ReportsField() {
  const item = useRecordContext<QueueRecord>();
  if (!item) return null;
  const counts = new Map<string, number>();
  for (const report of item.reports) counts.set(report.feedback, (counts.get(report.feedback) ?? 0) + 1);
  if (item.reportCount === 0)
    return (
      <Typography variant="body2" color="text.secondary" sx={{ minWidth: 140 }}>
        Not reported
      </Typography>
    );
  return (
    <Box sx={{ minWidth: 140 }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {item.reportCount === 1 ? '1 report' : `${item.reportCount} reports`}
      </Typography>
      <Stack direction="row" spacing={0.5} sx={{ my: 0.5, flexWrap: 'wrap' }}>
        {[...counts].map(([feedback, count]) => (
          <Chip key={feedback} size="small" variant="outlined" label={`${FEEDBACK_LABELS[feedback as keyof typeof FEEDBACK_LABELS]} × ${count}`} />
        ))}
      </Stack>
      <Typography variant="caption" color="text.secondary">
        By {item.reports.map((report) => report.reporter.name).join(', ')}
        {item.reportCount > item.reports.length && ` and ${item.reportCount - item.reports.length} more`}
      </Typography>
    </Box>
  );
}

export function FirstReportedField() {
  const item = useRecordContext<QueueRecord>();
  if (!item) return null;
  if (item.firstReportedAt === null)
    return (
      <Typography variant="body2" color="text.secondary">
        Never
      </Typography>
    );
  return (
    <Box component="time" dateTime={item.firstReportedAt} sx={{ typography: 'body2', whiteSpace: 'nowrap' }}>
      {formatTime(item.firstReportedAt)}
    </Box>
  );
}

/** A handled row: how, by whom, when, and why. */
export function HandledField() {
  const item = useRecordContext<QueueRecord>();
  if (!item?.handled) return null;
  const { handled } = item;
  return (
    <Box sx={{ minWidth: 160, maxWidth: 300 }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {HANDLED_LABELS[handled.action]}
      </Typography>
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
        by {handled.byName}, <time dateTime={handled.at}>{formatTime(handled.at)}</time>
      </Typography>
      {handled.reason && <Typography variant="body2">Reason: {handled.reason}</Typography>}
    </Box>
  );
}
