import { Box, Container, Toolbar } from '@mui/material';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { Footer } from './Footer';
import { NavBar } from './NavBar';

/** The public shell: fixed navigation bar, the page, footer. */
export function RootLayout() {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <NavBar />
      {/* Keeps the page clear of the fixed bar. */}
      <Toolbar aria-hidden />
      <Container component="main" maxWidth="md" sx={{ py: { xs: 3, md: 5 }, flexGrow: 1 }}>
        <Outlet />
      </Container>
      <Footer />
      <ScrollRestoration />
    </Box>
  );
}
