import { isoNow as at, uuidOf } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionHarness } from '../testing/given.ts';
import { tagsProjection } from './projection.ts';

let harness: Awaited<ReturnType<typeof projectionHarness>>;
beforeAll(async () => {
  harness = await projectionHarness('tags_projection');
});
afterAll(() => harness?.stop());

const created = (n: number, name: string) => harness.event('TagCreated', { tagId: uuidOf(n), name, createdAt: at() });
const deleted = (n: number, name: string) => harness.event('TagDeleted', { tagId: uuidOf(n), name, deletedAt: at() });

describe('given one batch', () => {
  it('when a tag is deleted and its name is created again, then the new tag has the name', async () => {
    const model = await harness.fresh(tagsProjection);
    await model.given([created(1, 'React'), created(2, 'Rust'), deleted(1, 'React'), created(3, 'react'), created(4, 'Go')]);
    expect(await model.rows('SELECT id, name FROM tags ORDER BY id')).toEqual([
      { id: uuidOf(2), name: 'Rust' },
      { id: uuidOf(3), name: 'react' },
      { id: uuidOf(4), name: 'Go' },
    ]);
  });

  it('when two creations take one name, then the first keeps it', async () => {
    const model = await harness.fresh(tagsProjection);
    await model.given([created(1, 'React'), created(2, 'REACT')]);
    expect(await model.rows('SELECT id FROM tags')).toEqual([{ id: uuidOf(1) }]);
  });
});
