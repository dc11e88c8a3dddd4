import { Box, Paper, Typography } from '@mui/material';
import { Suspense } from 'react';
import { preloadable } from '../../../lib/preloadable';

// the field's code (MUI's outlined field, its label and helper text) is not part of the home page's first load:
// the server's markup shows the form, and it is hydrated once its chunk is here
const TagSearchForm = preloadable(async () => (await import('./TagSearchForm')).TagSearchForm);

/** Spec §2 Home: a search-by-tag form; each result shows its title, tags and author. */
export function TagSearch() {
  return (
    <Paper component="section" variant="outlined" aria-labelledby="tag-search-heading" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id="tag-search-heading" variant="h6" component="h2" sx={{ fontWeight: 700, mb: 1.5 }}>
        Search posts by tag
      </Typography>
      {/* as tall as the form: the section does not change size when it comes */}
      <Suspense fallback={<Box sx={{ minHeight: { xs: 92, sm: 40 } }} />}>
        <TagSearchForm />
      </Suspense>
    </Paper>
  );
}
