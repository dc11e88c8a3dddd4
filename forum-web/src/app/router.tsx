import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { RootLayout } from '../components/layout/RootLayout';
import { NotificationBell } from '../features/notifications';
import { RequireAuth } from '../components/RequireAuth';
import { DashboardLayout, MembershipPage } from '../features/account';
import { AboutPage } from './routes/about';
import { ContactPage } from './routes/contact';
import { RouteErrorPage } from './routes/error';
import { HomePage } from './routes/home';
import { JoinUsPage, RegisterPage } from './routes/join-us';
import { NotFoundPage } from './routes/not-found';
import { LeaderboardPage } from './routes/leaderboard';
import { PostPage } from './routes/post';
import { PostCommentsPage } from './routes/post-comments';
import { TagPage } from './routes/tag';

/** The route table of spec §2; the pages of later issues are placeholders until then. */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout navActions={<NotificationBell />} />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'post/:id', element: <PostPage /> },
      {
        path: 'post/:postId/comments',
        element: (
          <RequireAuth>
            <PostCommentsPage />
          </RequireAuth>
        ),
      },
      { path: 'tags/:tag', element: <TagPage /> },
      { path: 'about', element: <AboutPage /> },
      { path: 'contact', element: <ContactPage /> },
      { path: 'joinUs', element: <JoinUsPage /> },
      { path: 'joinUs/register', element: <RegisterPage /> },
      {
        path: 'membership',
        element: (
          <RequireAuth>
            <MembershipPage />
          </RequireAuth>
        ),
      },
      {
        path: 'leaderboard',
        element: (
          <RequireAuth>
            <LeaderboardPage />
          </RequireAuth>
        ),
      },
      {
        path: 'dashboard/*',
        element: (
          <RequireAuth>
            <DashboardLayout />
          </RequireAuth>
        ),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const makeRouter = () => createBrowserRouter(routes);
