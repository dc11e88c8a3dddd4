import ForumOutlined from '@mui/icons-material/ForumOutlined';
import MenuIcon from '@mui/icons-material/Menu';
import { AppBar, Box, Button, Container, IconButton, Menu, MenuItem, Toolbar, Typography } from '@mui/material';
import { useState } from 'react';
import { Link, NavLink } from 'react-router-dom';

/** Links every reader sees; membership, leaderboard and admin join them with sign-in. */
const links = [
  { to: '/', label: 'Home' },
  { to: '/about', label: 'About' },
  { to: '/contact', label: 'Contact' },
] as const;

/** The fixed top bar (spec §2 Shell); below md the links fold into a menu. */
export function NavBar() {
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const closeMenu = () => setMenuAnchor(null);

  return (
    <AppBar position="fixed" elevation={0} sx={{ borderBottom: 1, borderColor: 'primary.dark' }}>
      <Container maxWidth="lg">
        <Toolbar disableGutters sx={{ gap: 1 }}>
          <Box sx={{ display: { xs: 'flex', md: 'none' } }}>
            <IconButton
              color="inherit"
              edge="start"
              aria-label="Open navigation menu"
              aria-controls={menuAnchor ? 'nav-menu' : undefined}
              aria-haspopup="true"
              aria-expanded={menuAnchor ? 'true' : undefined}
              onClick={(event) => setMenuAnchor(event.currentTarget)}
            >
              <MenuIcon />
            </IconButton>
            <Menu id="nav-menu" anchorEl={menuAnchor} open={Boolean(menuAnchor)} onClose={closeMenu}>
              {links.map((link) => (
                <MenuItem key={link.to} component={Link} to={link.to} onClick={closeMenu}>
                  {link.label}
                </MenuItem>
              ))}
            </Menu>
          </Box>

          <Typography
            component={Link}
            to="/"
            variant="h6"
            sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, color: 'inherit', textDecoration: 'none', fontWeight: 800, mr: 3 }}
          >
            <ForumOutlined aria-hidden />
            Forum
          </Typography>

          <Box component="nav" aria-label="Main" sx={{ display: { xs: 'none', md: 'flex' }, gap: 0.5, flexGrow: 1 }}>
            {links.map((link) => (
              <Button
                key={link.to}
                component={NavLink}
                to={link.to}
                end
                color="inherit"
                sx={{ opacity: 0.85, '&.active': { opacity: 1, bgcolor: 'rgba(255 255 255 / 0.14)' } }}
              >
                {link.label}
              </Button>
            ))}
          </Box>
          <Box sx={{ flexGrow: { xs: 1, md: 0 } }} />

          <Button component={Link} to="/joinUs" variant="contained" color="secondary" disableElevation>
            Join Us
          </Button>
        </Toolbar>
      </Container>
    </AppBar>
  );
}
