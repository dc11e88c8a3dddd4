import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { RootLayout } from '../components/layout/RootLayout';
import { NotificationBell } from '../features/notifications';
import { RequireAuth } from '../components/RequireAuth';
import { AboutPage } from './routes/about';
import { ComingSoonPage } from './routes/coming-soon';
import { ContactPage } from './routes/contact';
import { RouteErrorPage } from './routes/error';
import { HomePage } from './routes/home';
import { JoinUsPage, RegisterPage } from './routes/join-us';
import { NotFoundPage } from './routes/not-found';
import { PostPage } from './routes/post';
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
      { path: 'tags/:tag', element: <TagPage /> },
      { path: 'about', element: <AboutPage /> },
      { path: 'contact', element: <ContactPage /> },
      { path: 'joinUs', element: <JoinUsPage /> },
      { path: 'joinUs/register', element: <RegisterPage /> },
      {
        path: 'membership',
        element: (
          <RequireAuth>
            <ComingSoonPage title="Upgrade to Premium" message="Gold membership is coming soon." />
          </RequireAuth>
        ),
      },
      {
        path: 'leaderboard',
        element: (
          <RequireAuth>
            <ComingSoonPage title="Leaderboard" message="The leaderboard is coming soon." />
          </RequireAuth>
        ),
      },
      {
        path: 'dashboard/*',
        element: (
          <RequireAuth>
            <ComingSoonPage title="Dashboard" message="Your profile and your posts will be here soon." />
          </RequireAuth>
        ),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const makeRouter = () => createBrowserRouter(routes);
