import AccountCircleOutlined from '@mui/icons-material/AccountCircleOutlined';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import ListAltOutlined from '@mui/icons-material/ListAltOutlined';
import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import PostAddOutlined from '@mui/icons-material/PostAddOutlined';
import { NOTIFICATIONS_PATH } from '@forum/contracts';
import { Box, List, ListItemButton, ListItemIcon, ListItemText, Paper } from '@mui/material';
import { lazy, Suspense, type ComponentType } from 'react';
import { NavLink, Route, Routes } from 'react-router-dom';
import { NotFoundMessage } from '../../../components/NotFoundMessage';
import { PageSpinner } from '../../../components/PageSpinner';
import { AddPost } from './AddPost';
import { MyPosts } from './MyPosts';
import { MyProfile } from './MyProfile';

/** The edit page is opened from a post: its own chunk, loaded then; so are the notification centre and preferences. */
const EditPost = lazy(async () => ({ default: (await import('./EditPost')).EditPost }));
const NotificationCentre = lazy(async () => ({ default: (await import('../../notifications/centre')).NotificationCentre }));

const LINKS: { to: string; label: string; Icon: ComponentType; end?: boolean }[] = [
  { to: '/', label: 'Home', Icon: HomeOutlined, end: true },
  { to: '/dashboard', label: 'My Profile', Icon: AccountCircleOutlined, end: true },
  { to: '/dashboard/add-post', label: 'Add Post', Icon: PostAddOutlined },
  { to: '/dashboard/my-post', label: 'My Posts', Icon: ListAltOutlined },
  { to: NOTIFICATIONS_PATH, label: 'Notifications', Icon: NotificationsOutlined },
];

/**
 * Spec §2 User dashboard layout: the side links and the page they open. On a phone the
 * side list becomes a grid of links above the page (two by two, or one row on a tablet).
 */
export function DashboardLayout() {
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
          {LINKS.map(({ to, label, Icon, end }) => (
            <li key={to}>
              <ListItemButton
                component={NavLink}
                to={to}
                end={end}
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
          <Route
            path="notifications"
            element={
              <Suspense fallback={<PageSpinner />}>
                <NotificationCentre />
              </Suspense>
            }
          />
          <Route path="*" element={<NotFoundMessage />} />
        </Routes>
      </Box>
    </Box>
  );
}
