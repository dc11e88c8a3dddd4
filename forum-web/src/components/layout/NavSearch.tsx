import CloseIcon from '@mui/icons-material/Close';
import SearchIcon from '@mui/icons-material/Search';
import { SEARCH_QUERY_MAX } from '@forum/contracts';
import { Box, IconButton, InputBase } from '@mui/material';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

/** The results page's address for `words`. */
const searchPath = (words: string) => `/search?${new URLSearchParams({ q: words })}`;

/**
 * The search box of the bar, on every page: a field on wide screens; on a phone a button that opens
 * the field over the bar. Enter goes to the results page (/search?q=), which loads as its own chunk.
 */
export function NavSearch() {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const fieldId = useId();
  const close = () => {
    setOpen(false);
    opener.current?.focus();
  };
  return (
    <>
      <Box sx={{ display: { xs: 'none', md: 'block' } }}>
        <SearchField />
      </Box>
      <Box sx={{ display: { xs: 'flex', md: 'none' } }}>
        <IconButton
          ref={opener}
          color="inherit"
          aria-label="Search posts"
          aria-expanded={open}
          aria-controls={open ? fieldId : undefined}
          onClick={() => setOpen(true)}
        >
          <SearchIcon />
        </IconButton>
      </Box>
      {open && (
        <Box
          id={fieldId}
          // over the whole bar, in its colour, until a search is made or it is closed (Escape)
          sx={{
            display: { xs: 'flex', md: 'none' },
            position: 'absolute',
            top: 0,
            bottom: 0,
            // over the container's gutters too, so nothing of the bar shows at its ends
            left: { xs: -16, sm: -24 },
            right: { xs: -16, sm: -24 },
            px: { xs: 2, sm: 3 },
            // above the badges of the controls after it in the bar (MUI's Badge draws its badge at 1)
            zIndex: 2,
            alignItems: 'center',
            gap: 1,
            bgcolor: 'primary.main',
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape') close();
          }}
        >
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <SearchField opened onSearched={close} />
          </Box>
          <IconButton color="inherit" edge="end" aria-label="Close search" onClick={close}>
            <CloseIcon />
          </IconButton>
        </Box>
      )}
    </>
  );
}

/** What is wrong with `words` as a search, or null (the API says the same, see SEARCH_TEXT_RULE). */
function problemOf(words: string): string | null {
  if (words === '') return 'Type a word to search for';
  const length = Array.from(words).length;
  return length > SEARCH_QUERY_MAX ? `Search text must be at most ${SEARCH_QUERY_MAX} characters (this is ${length.toLocaleString('en-US')})` : null;
}

/** The field and its form; on the results page it holds the words searched. `opened`: it appeared on the user's request and takes the focus. */
function SearchField({ opened, onSearched }: { opened?: boolean; onSearched?: () => void }) {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const searched = pathname === '/search' ? (new URLSearchParams(search).get('q') ?? '') : null;
  const [text, setText] = useState(searched ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const problemId = useId();
  // the words of the results shown (also after Back or a link to another search)
  const [shown, setShown] = useState(searched);
  if (searched !== shown) {
    setShown(searched);
    if (searched !== null) setText(searched);
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const words = text.trim();
    const wrong = problemOf(words);
    setProblem(wrong);
    if (wrong) return;
    void navigate(searchPath(words));
    onSearched?.();
  };

  return (
    <Box component="form" role="search" aria-label="Posts" onSubmit={submit} noValidate sx={{ position: 'relative' }}>
      <InputBase
        type="search"
        placeholder="Search posts…"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setProblem(null);
        }}
        // eslint-disable-next-line jsx-a11y-x/no-autofocus -- only where the phone's field opens on the user's tap on Search posts
        autoFocus={opened}
        error={problem !== null}
        inputProps={{
          'aria-label': 'Search posts',
          enterKeyHint: 'search',
          'aria-invalid': problem !== null,
          'aria-describedby': problem ? problemId : undefined,
        }}
        startAdornment={<SearchIcon aria-hidden fontSize="small" sx={{ mr: 1, opacity: 0.85 }} />}
        sx={{
          color: 'inherit',
          width: { xs: '100%', md: 190, lg: 240 },
          px: 1.25,
          borderRadius: 1,
          bgcolor: 'rgba(255 255 255 / 0.16)',
          '&:hover': { bgcolor: 'rgba(255 255 255 / 0.24)' },
          '& input::placeholder': { color: 'inherit', opacity: 0.85 },
          // Chromium's clear button is drawn dark on the dark bar: Escape or selecting the words clears them
          '& input::-webkit-search-cancel-button': { WebkitAppearance: 'none' },
        }}
      />
      {problem && (
        <Box
          id={problemId}
          role="alert"
          sx={{
            position: 'absolute',
            top: '100%',
            left: 0,
            right: 0,
            mt: 0.75,
            p: 1,
            borderRadius: 1,
            boxShadow: 3,
            bgcolor: 'background.paper',
            color: 'error.dark',
            typography: 'body2',
          }}
        >
          {problem}
        </Box>
      )}
    </Box>
  );
}
