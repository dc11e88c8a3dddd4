import type { AdminStats } from '@forum/contracts';
import { useQuery } from '@tanstack/react-query';
import { HttpError, useDataProvider } from 'react-admin';
import type { ForumDataProvider } from '../../dataProvider';

/**
 * GET /api/admin/stats (the admin card and the three totals), through react-admin's query client
 * as its CRM example does: one read for every part of the dashboard, read again by the app bar's
 * refresh like the lists. (react-admin's data provider signs a lost session out itself.) A failure
 * is tried once more, a refusal (4xx) not at all.
 */
export function useAdminStats() {
  const dataProvider = useDataProvider<ForumDataProvider>();
  return useQuery<AdminStats>({
    queryKey: ['admin', 'getStats'],
    queryFn: () => dataProvider.getStats(),
    retry: (failures, error) => failures < 1 && !(error instanceof HttpError && error.status < 500),
  });
}
