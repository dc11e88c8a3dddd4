import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionHarness } from '../testing/given.ts';
import { tagsProjection } from './projection.ts';

let harness: Awaited<ReturnType<typeof projectionHarness>>;
beforeAll(async () => {
  harness = await projectionHarness('tags_projection');
});
afterAll(() => harness?.stop());

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const at = () => new Date().toISOString();
const created = (n: number, name: string) => harness.event('TagCreated', { tagId: uuid(n), name, createdAt: at() });
const deleted = (n: number, name: string) => harness.event('TagDeleted', { tagId: uuid(n), name, deletedAt: at() });

describe('given one batch', () => {
  it('when a tag is deleted and its name is created again, then the new tag has the name', async () => {
    const model = await harness.fresh(tagsProjection);
    await model.given([created(1, 'React'), created(2, 'Rust'), deleted(1, 'React'), created(3, 'react'), created(4, 'Go')]);
    expect(await model.rows('SELECT id, name FROM tags ORDER BY id')).toEqual([
      { id: uuid(2), name: 'Rust' },
      { id: uuid(3), name: 'react' },
      { id: uuid(4), name: 'Go' },
    ]);
  });

  it('when two creations take one name, then the first keeps it', async () => {
    const model = await harness.fresh(tagsProjection);
    await model.given([created(1, 'React'), created(2, 'REACT')]);
    expect(await model.rows('SELECT id FROM tags')).toEqual([{ id: uuid(1) }]);
  });
});
