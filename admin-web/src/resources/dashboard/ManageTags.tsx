import { UNPAGED_LIST_MAX } from '@forum/contracts';
import { Alert, Box, Button, Card, CardContent, Paper, Skeleton, Typography } from '@mui/material';
import { lazy, Suspense, useRef, useState } from 'react';
import { useGetList } from 'react-admin';
import { AddTagForm } from './AddTagForm';
import { DeleteTagButton } from './DeleteTagButton';
import { NoTags } from './NoTags';
import type { TagOutcome, TagRecord } from './types';

// the confirmation (react-admin's Confirm, MUI's Dialog) loads when a tag's delete is first asked
const DeleteTagConfirm = lazy(async () => ({ default: (await import('./DeleteTagConfirm')).DeleteTagConfirm }));

const grid = { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(170px, 1fr))', gap: 1.5, listStyle: 'none', p: 0, m: 0 } as const;

/**
 * Spec §2 Admin dashboard, Manage Tags: add a tag, and every tag (as many as one read gives, the
 * API's limit) with a leading # and its delete icon. After a verb the list is read again; the data
 * provider asks for the command's position, so the read shows the change. What came of a verb
 * ('Tag added successfully', 'Failed to add tag: #React already exists', …) is said in the card
 * between the field and the tags, which it moves down: a toast at the foot of the page covered them.
 */
export function ManageTags() {
  const input = useRef<HTMLInputElement>(null);
  const {
    data: tags,
    total,
    isPending,
    error,
    refetch,
  } = useGetList<TagRecord>('tags', {
    pagination: { page: 1, perPage: UNPAGED_LIST_MAX },
    sort: { field: 'name', order: 'ASC' },
  });

  // the tag being deleted, the button that asked, and whether the server deleted it
  const [deletion, setDeletion] = useState<{ tag: TagRecord; opener: HTMLElement; deleted: boolean } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<TagOutcome>(null);

  const askToDelete = (tag: TagRecord, opener: HTMLElement) => {
    setDeletion({ tag, opener, deleted: false });
    setConfirming(true);
  };
  const settled = async (deleted: boolean) => {
    setDeletion((current) => current && { ...current, deleted });
    await refetch();
  };
  // a deleted tag's button is gone with it: the focus goes to 'Enter new tag'; else back to the button
  const focusAfterConfirm = () => (deletion && !deletion.deleted && deletion.opener.isConnected ? deletion.opener : input.current)?.focus();

  return (
    <Card component="section" aria-labelledby="manage-tags-heading">
      <CardContent>
        <Typography id="manage-tags-heading" variant="h6" component="h2" sx={{ fontWeight: 700, mb: 2 }}>
          Manage Tags
        </Typography>
        <AddTagForm inputRef={input} onAdded={refetch} onOutcome={setOutcome} />
        {outcome && (
          // an error interrupts; a success is said when the reader is free
          <Alert severity={outcome.severity} role={outcome.severity === 'error' ? 'alert' : 'status'} onClose={() => setOutcome(null)} sx={{ mt: 1.5 }}>
            {outcome.text}
          </Alert>
        )}
        <Box sx={{ mt: 1 }}>
          {isPending ? (
            <Box sx={grid} aria-hidden>
              {Array.from({ length: 6 }, (_, i) => (
                <Skeleton key={i} variant="rounded" height={44} />
              ))}
            </Box>
          ) : error && !tags ? (
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={() => void refetch()}>
                  Retry
                </Button>
              }
            >
              Failed to load tags
            </Alert>
          ) : !tags?.length ? (
            <NoTags />
          ) : (
            <>
              <Box component="ul" aria-label="Tags" sx={grid}>
                {tags.map((tag) => (
                  <Paper
                    component="li"
                    key={tag.id}
                    variant="outlined"
                    sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, pl: 1.5, pr: 0.5, py: 0.5, minWidth: 0 }}
                  >
                    <Typography sx={{ fontWeight: 500, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={`#${tag.name}`}>
                      #{tag.name}
                    </Typography>
                    <DeleteTagButton tag={tag} onDelete={askToDelete} />
                  </Paper>
                ))}
              </Box>
              {total !== undefined && total > tags.length && (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
                  Showing the first {tags.length} of {total} tags.
                </Typography>
              )}
            </>
          )}
        </Box>
        {deletion && (
          <Suspense fallback={null}>
            <DeleteTagConfirm
              tag={deletion.tag}
              open={confirming}
              onClose={() => setConfirming(false)}
              onSettled={settled}
              onExited={focusAfterConfirm}
              onOutcome={setOutcome}
            />
          </Suspense>
        )}
      </CardContent>
    </Card>
  );
}
