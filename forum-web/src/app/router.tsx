import { isValidElement, lazy, type ComponentType } from 'react';
import { matchRoutes, useRoutes, type RouteObject } from 'react-router-dom';
import { RequireAuth } from '../components/RequireAuth';
import { Shell } from './shell';

/** A page: its own chunk, loaded when it is first opened or ahead of that (`preload`). */
type Page = ComponentType & { preload: () => Promise<void> };

/**
 * Each page is its own chunk, loaded when it is first opened (the layout shows a spinner in its place
 * meanwhile), or before, by `preload`: once loaded, the page renders at once, without suspending.
 */
function page<M>(load: () => Promise<M>, name: keyof M): Page {
  let loaded: ComponentType | undefined;
  const preload = async () => {
    loaded ??= (await load())[name] as ComponentType;
  };
  const Lazy = lazy(async () => {
    await preload();
    return { default: loaded! };
  });
  function Page() {
    const Loaded = loaded ?? Lazy;
    return <Loaded />;
  }
  return Object.assign(Page, { preload });
}

/**
 * Loads the code of the pages `pathname` opens. A page the server rendered is hydrated only then: a
 * page still loading while hydrating would suspend, and the first state change (the sign-in check's
 * answer, a read) would make React throw the server's markup away and show the spinner in its place.
 */
export async function preloadPages(pathname: string): Promise<void> {
  const pages = (matchRoutes(routes, pathname) ?? []).flatMap(({ route }) => {
    const type: unknown = isValidElement(route.element) ? route.element.type : undefined;
    return typeof type === 'function' && 'preload' in type ? [type as Page] : [];
  });
  await Promise.all(pages.map((page) => page.preload()));
}

const HomePage = page(() => import('./routes/home'), 'HomePage');
const PostPage = page(() => import('./routes/post'), 'PostPage');
const PostCommentsPage = page(() => import('./routes/post-comments'), 'PostCommentsPage');
const TagPage = page(() => import('./routes/tag'), 'TagPage');
const SearchPage = page(() => import('./routes/search'), 'SearchPage');
const AboutPage = page(() => import('./routes/about'), 'AboutPage');
const ContactPage = page(() => import('./routes/contact'), 'ContactPage');
const JoinUsPage = page(() => import('./routes/join-us'), 'JoinUsPage');
const RegisterPage = page(() => import('./routes/join-us'), 'RegisterPage');
const MembershipPage = page(() => import('./routes/membership'), 'MembershipPage');
const LeaderboardPage = page(() => import('./routes/leaderboard'), 'LeaderboardPage');
const ProfilePage = page(() => import('./routes/profile'), 'ProfilePage');
const UnsubscribePage = page(() => import('./routes/unsubscribe'), 'UnsubscribePage');
const DashboardPage = page(() => import('./routes/dashboard'), 'DashboardPage');
const NotFoundPage = page(() => import('./routes/not-found'), 'NotFoundPage');

/**
 * The route table of spec §2, in react-router's declarative mode: the pages' data comes from RTK
 * Query, not from route loaders, so the data router (a tenth of the first load) would buy nothing.
 * A page that throws shows RootLayout's error page; the shell stays.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Shell />,
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
      { path: 'search', element: <SearchPage /> },
      { path: 'u/:id', element: <ProfilePage /> },
      { path: 'unsubscribe', element: <UnsubscribePage /> },
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
            <DashboardPage />
          </RequireAuth>
        ),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function AppRoutes() {
  return useRoutes(routes);
}
