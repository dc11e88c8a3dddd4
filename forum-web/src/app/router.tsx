import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { RootLayout } from '../components/layout/RootLayout';
import { AboutPage } from './routes/about';
import { ComingSoonPage } from './routes/coming-soon';
import { ContactPage } from './routes/contact';
import { RouteErrorPage } from './routes/error';
import { HomePage } from './routes/home';
import { JoinUsPage } from './routes/join-us';
import { NotFoundPage } from './routes/not-found';
import { PostPage } from './routes/post';
import { TagPage } from './routes/tag';

/** The route table of spec §2; the pages of later issues are placeholders until then. */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'post/:id', element: <PostPage /> },
      { path: 'tags/:tag', element: <TagPage /> },
      { path: 'about', element: <AboutPage /> },
      { path: 'contact', element: <ContactPage /> },
      { path: 'joinUs', element: <JoinUsPage /> },
      {
        path: 'membership',
        element: <ComingSoonPage title="Upgrade to Premium" message="Gold membership is coming soon." />,
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const makeRouter = () => createBrowserRouter(routes);
