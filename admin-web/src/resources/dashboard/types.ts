import type { AdminTag } from '@forum/contracts';
import type { RaRecord } from 'react-admin';

/** An item of GET /api/admin/tags as react-admin holds it (`id` beside the forum's `_id`). */
export type TagRecord = AdminTag & RaRecord<string>;

/** What came of adding or deleting a tag, said in Manage Tags' card (null: nothing to say). */
export type TagOutcome = { severity: 'success' | 'error'; text: string } | null;

/** The three totals of the dashboard in the order of their cards and bars, with their spec names. */
export const STAT_NAMES = { totalPosts: 'Total Posts', totalComments: 'Total Comments', totalUsers: 'Total Users' } as const;
export type StatKey = keyof typeof STAT_NAMES;
export const STAT_KEYS = Object.keys(STAT_NAMES) as StatKey[];
