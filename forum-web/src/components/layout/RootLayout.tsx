import { Box, Container, Toolbar } from '@mui/material';
import type { ReactNode } from 'react';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { Footer } from './Footer';
import { NavBar } from './NavBar';

/** The public shell: fixed navigation bar (`navActions`: what the app adds before the account menu, the bell), the page, footer. */
export function RootLayout({ navActions }: { navActions?: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <NavBar actions={navActions} />
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
