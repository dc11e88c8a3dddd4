import { Button } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { FormattedDate } from '../FormattedDate';
import type { RevisionsState } from './revision';

/** The dialog and the diff library are a chunk of their own, loaded when a reader first opens the revisions. */
const RevisionsDialog = lazy(() => import('./RevisionsDialog'));

export interface EditedButtonProps {
  /** When the latest visible revision was made. */
  editedAt: string;
  /** What was revised, for the dialog's title ("this post"). */
  subject: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The revisions, read by the feature once `open`. */
  state: RevisionsState;
}

/** "edited <time>" beside a post's or a comment's date: it opens the revisions and what changed in each. */
export function EditedButton({ editedAt, subject, open, onOpenChange, state }: EditedButtonProps) {
  // mounted from the first opening on, so the dialog closes with its transition
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        size="small"
        aria-haspopup="dialog"
        onClick={() => {
          setOpened(true);
          onOpenChange(true);
        }}
        sx={{ p: 0, minWidth: 0, textTransform: 'none', verticalAlign: 'baseline', fontWeight: 400, lineHeight: 'inherit' }}
      >
        edited&nbsp;
        <time dateTime={editedAt}>
          <FormattedDate value={editedAt} time />
        </time>
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <RevisionsDialog open={open} onClose={() => onOpenChange(false)} subject={subject} state={state} />
        </Suspense>
      )}
    </>
  );
}
