import SearchIcon from '@mui/icons-material/Search';
import { Button, CircularProgress, FormControl, FormHelperText, InputLabel, OutlinedInput, Paper, Stack, Typography } from '@mui/material';
import { lazy, Suspense, useId, useState, type FormEvent } from 'react';

const loadResults = () => import('./TagSearchResults');
const TagSearchResults = lazy(loadResults);

/** The tag asked for: what was typed without the '#'s before it (the page's, not the tag's) and the spaces around it. */
const tagOf = (typed: string) => typed.replace(/^[\s#]+/, '').trim();

/** Spec §2 Home: a search-by-tag form; each result shows its title, tags and author. Nothing to search for says so on the field. */
export function TagSearch() {
  const inputId = useId();
  const helperId = useId();
  const [text, setText] = useState('');
  const [tag, setTag] = useState<string | null>(null);
  const [empty, setEmpty] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wanted = tagOf(text);
    setEmpty(wanted === '');
    if (wanted !== '') setTag(wanted);
  };

  return (
    <Paper component="section" variant="outlined" aria-labelledby="tag-search-heading" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id="tag-search-heading" variant="h6" component="h2" sx={{ fontWeight: 700, mb: 1.5 }}>
        Search posts by tag
      </Typography>
      <Stack component="form" role="search" direction={{ xs: 'column', sm: 'row' }} spacing={1.5} onSubmit={submit} sx={{ alignItems: { sm: 'flex-start' } }}>
        {/* FormControl and OutlinedInput rather than TextField, which would bring the whole Select along */}
        <FormControl size="small" error={empty} sx={{ flex: 1 }}>
          <InputLabel htmlFor={inputId}>Tag</InputLabel>
          <OutlinedInput
            id={inputId}
            label="Tag"
            placeholder="e.g. javascript"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setEmpty(false);
            }}
            inputProps={{ 'aria-describedby': empty ? `${helperId} tag-search-heading` : 'tag-search-heading' }}
            onFocus={() => void loadResults()}
          />
          {empty && (
            <FormHelperText id={helperId} role="alert">
              Type a tag
            </FormHelperText>
          )}
        </FormControl>
        {/* as tall as the small field beside it, which grows when it says what is missing */}
        <Button type="submit" variant="contained" startIcon={<SearchIcon />} sx={{ minHeight: 40 }}>
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
