import SearchIcon from '@mui/icons-material/Search';
import { Button, CircularProgress, FormControl, InputLabel, OutlinedInput, Paper, Stack, Typography } from '@mui/material';
import { lazy, Suspense, useId, useState, type FormEvent } from 'react';

const loadResults = () => import('./TagSearchResults');
const TagSearchResults = lazy(loadResults);

/** Spec §2 Home: a search-by-tag form; each result shows its title, tags and author. */
export function TagSearch() {
  const inputId = useId();
  const [text, setText] = useState('');
  const [tag, setTag] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wanted = text.trim().replace(/^#/, '');
    setTag(wanted.length > 0 ? wanted : null);
  };

  return (
    <Paper component="section" variant="outlined" aria-labelledby="tag-search-heading" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id="tag-search-heading" variant="h6" component="h2" sx={{ fontWeight: 700, mb: 1.5 }}>
        Search posts by tag
      </Typography>
      <Stack component="form" role="search" direction={{ xs: 'column', sm: 'row' }} spacing={1.5} onSubmit={submit}>
        {/* FormControl and OutlinedInput rather than TextField, which would bring the whole Select along */}
        <FormControl size="small" sx={{ flex: 1 }}>
          <InputLabel htmlFor={inputId}>Tag</InputLabel>
          <OutlinedInput
            id={inputId}
            label="Tag"
            placeholder="e.g. javascript"
            value={text}
            onChange={(e) => setText(e.target.value)}
            inputProps={{ 'aria-describedby': 'tag-search-heading' }}
            onFocus={loadResults}
          />
        </FormControl>
        <Button type="submit" variant="contained" startIcon={<SearchIcon />}>
          Search
        </Button>
      </Stack>
      {tag && (
        // the results' code loads with the first search (or when the field is first focused)
        <Suspense fallback={<CircularProgress size={24} aria-label="Searching" sx={{ mt: 2 }} />}>
          <TagSearchResults tag={tag} />
        </Suspense>
      )}
    </Paper>
  );
}
