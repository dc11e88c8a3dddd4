import ChatBubbleOutlineOutlined from '@mui/icons-material/ChatBubbleOutlineOutlined';
import ArticleOutlined from '@mui/icons-material/ArticleOutlined';
import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
import { Alert, Box, Button, Card, CardContent, Skeleton, Typography } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { lazy, Suspense, type ReactNode } from 'react';
import { useCanAccess } from 'react-admin';
import { PageTitle } from '../../layout/PageTitle';
import { lazyPage } from '../../lazyPage';
import { AdminCard } from './AdminCard';
import { ManageTags } from './ManageTags';
import { StatCard } from './StatCard';
import { STAT_KEYS, STAT_NAMES, type StatKey } from './types';
import { useAdminStats } from './useAdminStats';

// the chart library is the heaviest part of the page: the cards do not wait for it
const StatsChart = lazy(() => import('./StatsChart'));
// a moderator's home is another page: an admin's first screen does not load it
const ModeratorHome = lazyPage(() => import('./ModeratorHome'), 'ModeratorHome');

const STAT_ICONS: Record<StatKey, ReactNode> = {
  totalPosts: <ArticleOutlined />,
  totalComments: <ChatBubbleOutlineOutlined />,
  totalUsers: <PeopleOutlined />,
};

const chartSkeleton = <Skeleton variant="rounded" height={260} />;

/**
 * Spec §2 Admin dashboard ('Admin Profile', /admin): the admin card, the three totals as cards and
 * as a bar chart scaled to the largest (GET /api/admin/stats), and Manage Tags.
 */
export default function Dashboard() {
  // the statistics and the tags are admins' (GET /api/admin/stats, /api/admin/tags): a moderator's home is their own
  const { canAccess, isPending } = useCanAccess({ resource: 'dashboard', action: 'stats' });
  if (isPending) return null;
  return canAccess ? <AdminDashboard /> : <ModeratorHome />;
}

function AdminDashboard() {
  const { data, error, refetch } = useAdminStats();

  return (
    <Box sx={{ py: 2, display: 'grid', gap: 2 }}>
      <PageTitle title="Admin Profile" />
      {/* the app bar shows the title; this names the page for those who move by headings */}
      <Typography variant="h1" sx={visuallyHidden}>
        Admin Profile
      </Typography>
      {error && !data && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void refetch()}>
              Retry
            </Button>
          }
        >
          Failed to load statistics
        </Alert>
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '280px 1fr' }, alignItems: 'stretch' }}>
        <AdminCard admin={data?.admin} />
        <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' } }}>
            {STAT_KEYS.map((key) => (
              <StatCard key={key} icon={STAT_ICONS[key]} title={STAT_NAMES[key]} value={data?.stats[key]} />
            ))}
          </Box>
          <Card component="section" aria-labelledby="stats-chart-heading">
            <CardContent>
              <Typography id="stats-chart-heading" variant="h6" component="h2" sx={{ fontWeight: 700 }}>
                Totals compared
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                Each bar against the largest of the three
              </Typography>
              {data ? (
                <Suspense fallback={chartSkeleton}>
                  <StatsChart stats={data.stats} />
                </Suspense>
              ) : (
                chartSkeleton
              )}
            </CardContent>
          </Card>
        </Box>
      </Box>
      <ManageTags />
    </Box>
  );
}
