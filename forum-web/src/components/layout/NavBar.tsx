import ForumOutlined from '@mui/icons-material/ForumOutlined';
import MenuIcon from '@mui/icons-material/Menu';
import { AppBar, Box, Button, Container, IconButton, Toolbar, Typography } from '@mui/material';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { useAuthState } from '../../lib/auth';
import { AccountMenu } from './AccountMenu';
import { NavSearch } from './NavSearch';
import { linksFor } from './nav-links';

const loadNavMenu = () => import('./NavMenu');
const NavMenu = lazy(loadNavMenu);

/**
 * The fixed top bar (spec §2 Shell) with the search box; below md the links fold into a menu and the
 * search box into a button. `picture`: the signed-in user's photo as the forum has it.
 */
export function NavBar({ actions, picture }: { actions?: ReactNode; picture?: string }) {
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const [menuOpened, setMenuOpened] = useState(false);
  const closeMenu = () => setMenuAnchor(null);
  const { user } = useAuthState();
  const links = linksFor(user !== null, user?.roles.includes('admin') ?? false);

  return (
    // (the theme draws the focus ring white on the bar)
    <AppBar position="fixed" elevation={0} sx={{ borderBottom: 1, borderColor: 'primary.dark' }}>
      <Container maxWidth="lg">
        <Toolbar disableGutters sx={{ gap: { xs: 0.5, sm: 1 } }}>
          <Box sx={{ display: { xs: 'flex', md: 'none' } }}>
            <IconButton
              color="inherit"
              edge="start"
              aria-label="Open navigation menu"
              aria-controls={menuAnchor ? 'nav-menu' : undefined}
              aria-haspopup="true"
              aria-expanded={menuAnchor ? 'true' : undefined}
              onClick={(event) => {
                setMenuAnchor(event.currentTarget);
                setMenuOpened(true);
              }}
              onPointerEnter={() => void loadNavMenu()}
              onFocus={() => void loadNavMenu()}
            >
              <MenuIcon />
            </IconButton>
            {/* the menu's code loads when it is first opened (or pointed at) */}
            {menuOpened && (
              <Suspense fallback={null}>
                <NavMenu id="nav-menu" anchor={menuAnchor} links={links} onClose={closeMenu} />
              </Suspense>
            )}
          </Box>

          <Typography
            component={Link}
            to="/"
            variant="h6"
            sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, color: 'inherit', textDecoration: 'none', fontWeight: 800, mr: { xs: 0.5, md: 3 } }}
          >
            <ForumOutlined aria-hidden />
            Forum
          </Typography>

          <Box component="nav" aria-label="Main" sx={{ display: { xs: 'none', md: 'flex' }, gap: 0.5, flexGrow: 1 }}>
            {links.map((link) =>
              link.external ? (
                <Button key={link.to} component="a" href={link.to} color="inherit" sx={{ opacity: 0.85 }}>
                  {link.label}
                </Button>
              ) : (
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
              ),
            )}
          </Box>
          <Box sx={{ flexGrow: { xs: 1, md: 0 } }} />

          <NavSearch />
          {actions}
          <AccountMenu picture={picture} />
        </Toolbar>
      </Container>
    </AppBar>
  );
}
