import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useId, useState } from 'react';
import { formatDateTime } from '../../lib/format';
import type { RevisionsState, RevisionView } from './revision';
import { WordDiff } from './WordDiff';

export interface RevisionsDialogProps {
  open: boolean;
  onClose: () => void;
  /** What was revised, for the title ("this post", "this comment"). */
  subject: string;
  state: RevisionsState;
}

/** "Revision 2, 5 Dec 2026, 10:04, by Alice Martin" and the reason staff gave. */
function RevisionLine({ revision }: { revision: RevisionView }) {
  return (
    <ListItemText
      primary={
        <>
          <strong>{revision.number === 1 ? 'Revision 1 (as written)' : `Revision ${revision.number}`}</strong>
          {', '}
          <time dateTime={revision.editedAt}>{formatDateTime(revision.editedAt)}</time>
          {`, by ${revision.editorName}`}
        </>
      }
      secondary={revision.reason ? `Reason: ${revision.reason}` : undefined}
    />
  );
}

/**
 * The revisions of a post or a comment (its own chunk, with the diff library): each revision's
 * number, time, editor and reason, and the words that changed between a revision and the one before
 * it, field by field. The revision to compare is chosen in a select (keyboard: arrows, Enter).
 */
export default function RevisionsDialog({ open, onClose, subject, state }: RevisionsDialogProps) {
  const titleId = useId();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const revisions = state.revisions ?? [];
  const last = revisions.at(-1)?.number;
  const [chosen, setChosen] = useState<number | null>(null);
  // the newest change unless another was chosen (and is still listed)
  const index = Math.max(
    1,
    revisions.findIndex((revision) => revision.number === (chosen ?? last)),
  );
  const after = revisions[index];
  const before = revisions[index - 1];

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth="md" fullWidth fullScreen={phone}>
      <DialogTitle id={titleId}>{`Revisions of ${subject}`}</DialogTitle>
      <DialogContent dividers>
        {state.isLoading ? (
          <Stack role="status" sx={{ alignItems: 'center', py: 4 }}>
            <CircularProgress aria-label="Loading the revisions" />
          </Stack>
        ) : state.isError || !state.revisions ? (
          <Alert severity="error">The revisions could not be loaded. Please try again later.</Alert>
        ) : (
          <Stack spacing={2.5}>
            <Box>
              <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
                {`${state.totalCount ?? revisions.length} revisions`}
              </Typography>
              {state.totalCount !== undefined && state.totalCount > revisions.length && (
                <Typography variant="body2" color="text.secondary">{`The newest ${revisions.length} are shown.`}</Typography>
              )}
              <List dense aria-label="Revisions" disablePadding>
                {revisions.map((revision) => (
                  <ListItem key={revision.number} disableGutters>
                    <RevisionLine revision={revision} />
                  </ListItem>
                ))}
              </List>
            </Box>
            {after && before && (
              <Stack spacing={2} component="section" aria-labelledby={`${titleId}-changes`}>
                <TextField
                  select
                  label="Compare"
                  value={after.number}
                  onChange={(event) => setChosen(Number(event.target.value))}
                  size="small"
                  sx={{ maxWidth: 360 }}
                >
                  {revisions.slice(1).map((revision, at) => (
                    <MenuItem key={revision.number} value={revision.number}>
                      {`Revision ${revisions[at]?.number} → revision ${revision.number}`}
                    </MenuItem>
                  ))}
                </TextField>
                <Typography id={`${titleId}-changes`} variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
                  {`What changed in revision ${after.number}`}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {`From revision ${before.number}: added words are underlined on green, removed words struck through on red.`}
                  {after.reason && ` Reason given: ${after.reason}`}
                </Typography>
                {after.fields.map((field, at) => {
                  const previous = before.fields[at]?.text ?? '';
                  return (
                    <Box key={field.label}>
                      <Typography variant="subtitle2" component="h4" sx={{ mb: 0.5 }}>
                        {previous === field.text ? `${field.label} (unchanged)` : field.label}
                      </Typography>
                      <WordDiff before={previous} after={field.text} />
                    </Box>
                  );
                })}
              </Stack>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained">
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
