import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import OpenInNew from '@mui/icons-material/OpenInNew';
import { Chip, Link as MuiLink, Stack, Typography } from '@mui/material';
import { useId } from 'react';
import { Link, useBasename, useRecordContext } from 'react-admin';
import type { ReportedCommentGroup } from './groupReports';

/**
 * The reported comment's text, how often it was reported when more than once, 'View Post' (the
 * forum's page of the post, in a new tab as its icon shows, so the moderator keeps the reports where
 * they were) and the post's history.
 */
export function CommentField() {
  const comment = useRecordContext<ReportedCommentGroup>();
  const basename = useBasename();
  const newTab = useId();
  if (!comment) return null;
  return (
    <Stack spacing={0.5} sx={{ maxWidth: 360, minWidth: 180 }}>
      <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', display: '-webkit-box', WebkitLineClamp: 6, WebkitBoxOrient: 'vertical', overflow: 'hidden' }} title={comment.text}>
        {comment.text}
      </Typography>
      <Stack direction="row" useFlexGap spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        {comment.reportCount > 1 && <Chip size="small" variant="outlined" label={`Reported ${comment.reportCount} times`} />}
        <MuiLink
          href={`/post/${encodeURIComponent(comment.postId)}`}
          target="_blank"
          rel="noopener noreferrer"
          aria-describedby={newTab}
          variant="body2"
          sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
        >
          View Post
          <OpenInNew sx={{ fontSize: 14 }} aria-hidden />
        </MuiLink>
        {/* what the icon shows, said by the link's description (a hidden element still describes) */}
        <span id={newTab} hidden>
          opens in a new tab
        </span>
        <Link to={`${basename}/history/post/${encodeURIComponent(comment.postId)}`} variant="body2" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
          <HistoryOutlined sx={{ fontSize: 16 }} aria-hidden />
          History
        </Link>
      </Stack>
    </Stack>
  );
}
