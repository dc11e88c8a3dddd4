import { markdownToPlainText } from '@forum/contracts/markdown';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import { Chip, Stack, Typography } from '@mui/material';
import { Link, useBasename, useRecordContext } from 'react-admin';
import { ViewPostLink } from '../../components/ViewPostLink';
import type { ReportedCommentGroup } from './groupReports';

/**
 * The reported comment's text, how often it was reported when more than once, 'View Post' (in a new
 * tab) and the post's history.
 */
export function CommentField() {
  const comment = useRecordContext<ReportedCommentGroup>();
  const basename = useBasename();
  if (!comment) return null;
  // the table shows what the comment says, not its Markdown
  const text = markdownToPlainText(comment.text);
  return (
    <Stack spacing={0.5} sx={{ maxWidth: 360, minWidth: 180 }}>
      <Typography
        variant="body2"
        sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', display: '-webkit-box', WebkitLineClamp: 6, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
        title={text}
      >
        {text}
      </Typography>
      <Stack direction="row" useFlexGap spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        {comment.reportCount > 1 && <Chip size="small" variant="outlined" label={`Reported ${comment.reportCount} times`} />}
        <ViewPostLink postId={comment.postId} />
        <Link
          to={`${basename}/history/post/${encodeURIComponent(comment.postId)}`}
          variant="body2"
          sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
        >
          <HistoryOutlined sx={{ fontSize: 16 }} aria-hidden />
          History
        </Link>
      </Stack>
    </Stack>
  );
}
