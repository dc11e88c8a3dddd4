import ReportProblemOutlined from '@mui/icons-material/ReportProblemOutlined';
import { Chip } from '@mui/material';
import { useDataProvider, useRecordContext } from 'react-admin';
import { ConfirmedAction } from '../../components/ConfirmedAction';
import type { ForumDataProvider } from '../../dataProvider';
import { commentStart, type ReportedCommentGroup } from './groupReports';

/**
 * Spec §2/§8 Warn User: a warning to the comment's author, naming the comment. The reports stay
 * open until the comment is deleted (spec §4); the list is read again (at the command's position)
 * so that the row says 'Warned': a comment is warned about once (the server refuses a second
 * warning, docs/moderation.md), so a warned comment offers no Warn User.
 */
export function WarnUserButton() {
  const comment = useRecordContext<ReportedCommentGroup>();
  const dataProvider = useDataProvider<ForumDataProvider>();
  if (!comment) return null;
  // the text in the body's colour: the palette's warning orange is too light for small text on white
  if (comment.warned)
    return (
      <Chip size="small" variant="outlined" icon={<ReportProblemOutlined color="warning" aria-hidden />} label="Warned" sx={{ alignSelf: 'flex-start' }} />
    );
  return (
    <ConfirmedAction
      label="Warn User"
      ariaLabel={`Warn User ${comment.author.name} about the comment: ${commentStart(comment)}`}
      icon={<ReportProblemOutlined />}
      question="This will send a warning to the user"
      confirmLabel="Yes, warn the user"
      run={() => dataProvider.warnUser(comment.author.email, { commentId: comment.id })}
      success="Warned! User has been warned"
      failure="Failed to warn user"
      serverMessageFirst
      refresh
    />
  );
}
