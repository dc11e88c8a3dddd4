import SearchIcon from '@mui/icons-material/Search';
import { Alert, Box, Button, Chip, CircularProgress, Link, List, ListItem, ListItemText, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useSearchPostsByTagQuery } from '../api/search-by-tag';
import { postPath } from './PostCard';

/** Spec §2 Home: a search-by-tag form; each result shows its title, tags and author. */
export function TagSearch() {
  const [text, setText] = useState('');
  const [tag, setTag] = useState<string | null>(null);
  const { data, isFetching, isError } = useSearchPostsByTagQuery({ tag: tag ?? '', page: 1 }, { skip: !tag });

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
        <TextField
          label="Tag"
          placeholder="e.g. javascript"
          size="small"
          value={text}
          onChange={(e) => setText(e.target.value)}
          sx={{ flex: 1 }}
          slotProps={{ htmlInput: { 'aria-describedby': 'tag-search-heading' } }}
        />
        <Button type="submit" variant="contained" startIcon={<SearchIcon />}>
          Search
        </Button>
      </Stack>
      {tag && (
        <Box sx={{ mt: 2 }} aria-live="polite">
          {isFetching ? (
            <CircularProgress size={24} aria-label="Searching" />
          ) : isError ? (
            <Alert severity="error">The search did not work. Please try again.</Alert>
          ) : data && data.posts.length === 0 ? (
            <Typography color="text.secondary">No posts found.</Typography>
          ) : (
            data && (
              <>
                <Typography variant="body2" color="text.secondary">
                  {data.totalCount === 1 ? '1 post' : `${data.totalCount} posts`} tagged #{tag}
                  {data.totalCount > data.posts.length && (
                    <>
                      {' '}
                      ·{' '}
                      <Link component={RouterLink} to={`/tags/${encodeURIComponent(tag)}`}>
                        See them all
                      </Link>
                    </>
                  )}
                </Typography>
                <List dense aria-label={`Posts tagged ${tag}`}>
                  {data.posts.map((post) => (
                    <ListItem key={post._id} disableGutters>
                      <ListItemText
                        primary={
                          <Link component={RouterLink} to={postPath(post._id)} sx={{ fontWeight: 600 }}>
                            {post.title}
                          </Link>
                        }
                        secondary={
                          <Stack component="span" direction="row" spacing={0.75} sx={{ flexWrap: 'wrap', alignItems: 'center', mt: 0.5 }} useFlexGap>
                            <Typography component="span" variant="caption">
                              by {post.authorName}
                            </Typography>
                            {post.tags.map((t) => (
                              <Chip key={t} component="span" label={`#${t}`} size="small" variant="outlined" />
                            ))}
                          </Stack>
                        }
                        slotProps={{ secondary: { component: 'div' } }}
                      />
                    </ListItem>
                  ))}
                </List>
              </>
            )
          )}
        </Box>
      )}
    </Paper>
  );
}
