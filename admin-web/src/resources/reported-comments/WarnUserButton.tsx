import ReportProblemOutlined from '@mui/icons-material/ReportProblemOutlined';
import { useDataProvider, useRecordContext } from 'react-admin';
import { ConfirmedAction } from '../../components/ConfirmedAction';
import type { ForumDataProvider } from '../../dataProvider';
import type { ReportedCommentGroup } from './groupReports';

/**
 * Spec §2/§8 Warn User: a warning to the comment's author, naming the comment. The list does not
 * change (spec §4): the reports stay open until the comment is deleted.
 */
export function WarnUserButton() {
  const comment = useRecordContext<ReportedCommentGroup>();
  const dataProvider = useDataProvider<ForumDataProvider>();
  if (!comment) return null;
  return (
    <ConfirmedAction
      label="Warn User"
      icon={<ReportProblemOutlined />}
      question="This will send a warning to the user"
      confirmLabel="Yes, warn the user"
      run={() => dataProvider.warnUser(comment.author.email, { commentId: comment.id })}
      success="Warned! User has been warned"
      failure="Failed to warn user"
      serverMessageFirst
    />
  );
}
