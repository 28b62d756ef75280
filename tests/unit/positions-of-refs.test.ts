/**
 * Where each indexed document lies among the catalog's records (`positionsOfRefs`,
 * src/catalog/catalog.ts): after a write the index keeps its order while records move, go and
 * come. Checked against a plain search of the records for each document.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { positionsOfRefs } from '../../src/catalog/catalog.ts';

const plain = (refs: readonly string[], records: readonly { id: string }[]) => Int32Array.from(refs, (ref) => records.findIndex((record) => record.id === ref));

/** Records made from the index's refs by some moves, removals and additions, as writes make them. */
const changed = fc
  .record({
    count: fc.integer({ min: 0, max: 300 }),
    moves: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 30 }),
    removals: fc.array(fc.nat(), { maxLength: 5 }),
    additions: fc.array(fc.nat(), { maxLength: 5 }),
  })
  .map(({ count, moves, removals, additions }) => {
    const refs = Array.from({ length: count }, (_, i) => `d-${i}`);
    const ids = [...refs];
    for (const [from, to] of moves) {
      if (ids.length === 0) break;
      const [id] = ids.splice(from % ids.length, 1);
      ids.splice(to % (ids.length + 1), 0, id as string);
    }
    for (const at of removals) if (ids.length > 0) ids.splice(at % ids.length, 1);
    additions.forEach((at, n) => ids.splice(at % (ids.length + 1), 0, `new-${n}`));
    return { refs, records: ids.map((id) => ({ id })) };
  });

test('each document at the position of the record with its id, -1 for none, whatever moved (property)', () => {
  fc.assert(
    fc.property(changed, ({ refs, records }) => {
      expect(positionsOfRefs(refs, records)).toEqual(plain(refs, records));
    }),
    { numRuns: 500 },
  );
});

test('the same order, one record moved to the front, and one gone: found without a map as with one', () => {
  const refs = Array.from({ length: 1000 }, (_, i) => `d-${i}`);
  const moved = [refs[700] as string, ...refs.slice(0, 700), ...refs.slice(701)].filter((id) => id !== 'd-20');
  const records = moved.map((id) => ({ id }));
  expect(
    positionsOfRefs(
      refs,
      refs.map((id) => ({ id })),
    ),
  ).toEqual(Int32Array.from(refs, (_, i) => i));
  expect(positionsOfRefs(refs, records)).toEqual(plain(refs, records));
});
