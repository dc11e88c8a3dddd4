import AccountCircleOutlined from '@mui/icons-material/AccountCircleOutlined';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import ListAltOutlined from '@mui/icons-material/ListAltOutlined';
import PostAddOutlined from '@mui/icons-material/PostAddOutlined';
import { Box, List, ListItemButton, ListItemIcon, ListItemText, Paper } from '@mui/material';
import { lazy, Suspense, type ComponentType, type ReactElement } from 'react';
import { NavLink, Route, Routes, useLocation } from 'react-router-dom';
import { NotFoundMessage } from '../../../components/NotFoundMessage';
import { PageSpinner } from '../../../components/PageSpinner';
import { AddPost } from './AddPost';
import { MyPosts } from './MyPosts';
import { MyProfile } from './MyProfile';

/** The edit page is opened from a post: its own chunk, loaded then. */
const EditPost = lazy(async () => ({ default: (await import('./EditPost')).EditPost }));

/**
 * A page of the dashboard another feature gives (the app composes them): its path under /dashboard, and
 * its menu link if it has one; a page without a link may sit `under` another page's (its path), which
 * the menu then marks while it is open.
 */
export interface DashboardPage {
  path: string;
  element: ReactElement;
  link?: { label: string; Icon: ComponentType };
  under?: string;
}

/** `also`: the paths of the pages under this link (marked while one of them is open). */
type MenuLink = { to: string; label: string; Icon: ComponentType; end?: boolean; also?: readonly string[] };

const LINKS: MenuLink[] = [
  { to: '/', label: 'Home', Icon: HomeOutlined, end: true },
  { to: '/dashboard', label: 'My Profile', Icon: AccountCircleOutlined, end: true },
  { to: '/dashboard/add-post', label: 'Add Post', Icon: PostAddOutlined },
  { to: '/dashboard/my-post', label: 'My Posts', Icon: ListAltOutlined },
];

/**
 * Spec §2 User dashboard layout: the side links and the page they open. On a phone the
 * side list becomes a grid of links above the page (two by two, or one row on a tablet).
 */
export function DashboardLayout({ pages = [] }: { pages?: readonly DashboardPage[] }) {
  const { pathname } = useLocation();
  const links: MenuLink[] = [
    ...LINKS,
    ...pages.flatMap(({ path, link }) =>
      link ? [{ to: `/dashboard/${path}`, ...link, also: pages.filter((page) => page.under === path).map((page) => `/dashboard/${page.path}`) }] : [],
    ),
  ];
  return (
    <Box sx={{ display: 'flex', flexDirection: { xs: 'column', md: 'row' }, gap: { xs: 2, md: 3 }, alignItems: { md: 'flex-start' } }}>
      <Paper
        component="nav"
        aria-label="Dashboard"
        variant="outlined"
        sx={{ flexShrink: 0, width: { md: 200 }, position: { md: 'sticky' }, top: { md: 88 }, overflow: 'hidden' }}
      >
        <List
          disablePadding
          sx={{
            display: { xs: 'grid', md: 'flex' },
            gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(3, 1fr)' },
            flexDirection: 'column',
            py: { md: 1 },
          }}
        >
          {links.map(({ to, label, Icon, end, also = [] }) => (
            <li key={to}>
              <ListItemButton
                component={NavLink}
                to={to}
                end={end}
                // NavLink adds 'active' on its own page; a page under it is marked the same way
                className={also.includes(pathname) ? 'active' : undefined}
                sx={{
                  whiteSpace: 'nowrap',
                  px: { xs: 1.5, md: 2 },
                  '&.active': { bgcolor: 'action.selected', color: 'primary.main', fontWeight: 700 },
                  '&.active .MuiListItemIcon-root': { color: 'primary.main' },
                }}
              >
                <ListItemIcon sx={{ minWidth: { xs: 32, md: 40 } }}>
                  <Icon />
                </ListItemIcon>
                <ListItemText primary={label} slotProps={{ primary: { sx: { fontWeight: 'inherit' } } }} />
              </ListItemButton>
            </li>
          ))}
        </List>
      </Paper>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Routes>
          <Route index element={<MyProfile />} />
          <Route path="add-post" element={<AddPost />} />
          <Route path="my-post" element={<MyPosts />} />
          <Route
            path="my-post/:id/edit"
            element={
              <Suspense fallback={<PageSpinner />}>
                <EditPost />
              </Suspense>
            }
          />
          {pages.map(({ path, element }) => (
            <Route key={path} path={path} element={<Suspense fallback={<PageSpinner />}>{element}</Suspense>} />
          ))}
          <Route path="*" element={<NotFoundMessage />} />
        </Routes>
      </Box>
    </Box>
  );
}
