import type { ReportedComment } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { groupReports } from './groupReports';

const person = (name: string) => ({ name, email: `${name.toLowerCase()}@forum.test`, photoURL: '' });
const row = (reportId: string, commentId: string, reporter: string, reportCount: number): ReportedComment => ({
  _id: commentId,
  reportId,
  text: `text of ${commentId}`,
  postId: `post of ${commentId}`,
  author: person('Ben'),
  reporter: person(reporter),
  feedback: 'spam',
  reportedAt: `2026-11-24T10:00:0${reportId.slice(-1)}.000Z`,
  reportCount,
  warned: false,
});

describe('groupReports', () => {
  it('makes one group per comment, in the order each comment first appears, its reports in the order read', () => {
    const groups = groupReports([row('r-5', 'c-1', 'Dan', 2), row('r-4', 'c-2', 'Cara', 1), row('r-3', 'c-1', 'Cara', 2)]);
    expect(groups.map((g) => [g.id, g.postId, g.reports.map((r) => r.reporter.name), g.reportCount])).toEqual([
      ['c-1', 'post of c-1', ['Dan', 'Cara'], 2],
      ['c-2', 'post of c-2', ['Cara'], 1],
    ]);
  });

  it("keeps the server's count when not every report was read, and never counts fewer than it shows", () => {
    expect(groupReports([row('r-1', 'c-1', 'Dan', 7)])[0]!.reportCount).toBe(7);
    expect(groupReports([row('r-1', 'c-1', 'Dan', 0), row('r-2', 'c-1', 'Cara', 0)])[0]!.reportCount).toBe(2);
  });

  it('shows a report read twice (pages overlapping as reports come and go) once', () => {
    expect(groupReports([row('r-1', 'c-1', 'Dan', 1), row('r-1', 'c-1', 'Dan', 1)])[0]!.reports).toHaveLength(1);
  });

  it('makes nothing of nothing', () => {
    expect(groupReports([])).toEqual([]);
  });
});
