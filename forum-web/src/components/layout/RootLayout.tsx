import { Box, Container, Toolbar } from '@mui/material';
import { Suspense, type ReactNode } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { Outlet, useLocation } from 'react-router-dom';
import { PageSpinner } from '../PageSpinner';
import { Footer } from './Footer';
import { NavBar } from './NavBar';
import { PageError } from './PageError';
import { ScrollToTop } from './ScrollToTop';
import { MAIN_ID, SkipLink } from './SkipLink';

/** The screen's height less the fixed bar's (MUI's toolbar: 56 px on a phone, 64 px from sm; 48 px on a phone held sideways, where this leaves 8 px more). */
const BELOW_THE_BAR = { xs: 'calc(100vh - 56px)', sm: 'calc(100vh - 64px)' };

/**
 * The public shell: the skip link, fixed navigation bar (`navActions`: what the app adds before the account menu,
 * the bell; `userPicture`: the signed-in user's photo as the forum has it), `notice` (what every page
 * starts with while it holds: the suspension banner), the page, footer.
 */
export function RootLayout({ navActions, userPicture, notice }: { navActions?: ReactNode; userPicture?: string; notice?: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <SkipLink />
      <NavBar actions={navActions} picture={userPicture} />
      {/* Keeps the page clear of the fixed bar. */}
      <Toolbar aria-hidden />
      {/*
        focusable from the skip link only; the focus there needs no ring. At least the screen's height under the bar: the footer starts
        below the first screen, so a page whose content comes in after its first paint moves nothing the reader sees (no layout shift)
      */}
      <Container
        component="main"
        id={MAIN_ID}
        tabIndex={-1}
        maxWidth="md"
        sx={{ py: { xs: 3, md: 5 }, flexGrow: 1, minHeight: BELOW_THE_BAR, '&:focus': { outline: 'none' } }}
      >
        {notice}
        {/* a page that throws shows the error page until the next page; the pages load as their own chunks */}
        <ErrorBoundary fallback={<PageError />} onError={(error) => console.error(error)} resetKeys={[pathname]}>
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </Container>
      <Footer />
      <ScrollToTop />
    </Box>
  );
}
