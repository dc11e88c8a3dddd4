import type { AdminUser } from '@forum/contracts';

/** A row of GET /api/admin/users as react-admin holds it (the data provider adds `id`). */
export type UserRecord = AdminUser & { id: string };
