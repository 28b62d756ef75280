/**
 * Records' JSON bytes by position (src/catalog/record-bytes.ts): each record's bytes are its
 * `JSON.stringify`, wherever they lie; after writes, records that did not change keep their
 * bytes in the built file, and only the others are serialised.
 */
import { describe, expect, test } from 'vitest';
import { RecordBytes } from '../../src/catalog/record-bytes.ts';
import { seededRandom } from '../../scripts/seeded-random.ts';

const decoder = new TextDecoder();
/** `view` is the very bytes of `file`, not a copy. */
const isView = (view: Uint8Array, file: Uint8Array): boolean => view.buffer === file.buffer && view.byteOffset === file.byteOffset && view.byteLength === file.byteLength;
const texts = (bytes: RecordBytes): string[] => Array.from({ length: bytes.length }, (_, i) => decoder.decode(bytes.view(i)));

/** A catalog file as the build writes it, and the spans of its records. */
function fileOf(records: readonly object[]): { file: Buffer; spans: number[] } {
  const head = '{"version":"v","deals":[';
  const spans: number[] = [];
  let text = head;
  records.forEach((record, i) => {
    if (i > 0) text += ',';
    const start = Buffer.byteLength(text);
    text += JSON.stringify(record);
    spans.push(start, Buffer.byteLength(text));
  });
  return { file: Buffer.from(`${text}]}`), spans };
}

const records = Array.from({ length: 40 }, (_, i) => ({ id: `d-${i}`, title: `Déal ${i} ☃`, tags: i % 3 ? ['cloud'] : [] }));

describe('record bytes', () => {
  test('serialised: each record is its JSON, in one buffer with a comma between neighbours', () => {
    const bytes = RecordBytes.of(records);
    expect(texts(bytes)).toEqual(records.map((r) => JSON.stringify(r)));
    expect(bytes.buffers[0].byteLength).toBe(0);
    expect(decoder.decode(bytes.buffers[1])).toBe(records.map((r) => JSON.stringify(r)).join(','));
    expect(RecordBytes.of([]).length).toBe(0);
  });

  test('from the file: views of it, refused where a span is not a record of a list', () => {
    const { file, spans } = fileOf(records);
    const bytes = RecordBytes.inFile(file, spans, records.length);
    expect(bytes && texts(bytes)).toEqual(records.map((r) => JSON.stringify(r)));
    expect(bytes && isView(bytes.buffers[0], file)).toBe(true);
    expect(RecordBytes.inFile(file, spans, records.length + 1)).toBeUndefined();
    expect(
      RecordBytes.inFile(
        file,
        spans.map((at, i) => (i === 5 ? at + 1 : at)),
        records.length,
      ),
    ).toBeUndefined();
    expect(
      RecordBytes.inFile(
        file,
        spans.map((at, i) => (i === 7 ? file.byteLength + 1 : at)),
        records.length,
      ),
    ).toBeUndefined();
  });

  test('after writes: unchanged records keep their place in the file, the others are serialised, in list order', () => {
    const random = seededRandom(5);
    const { file, spans } = fileOf(records);
    let list: object[] = records;
    let bytes = RecordBytes.inFile(file, spans, records.length) as RecordBytes;
    for (let write = 0; write < 30; write++) {
      // Change some records, drop some, add some, reorder a little: what writes do to a list.
      const next = list
        .filter(() => random() > 0.05)
        .map((record) => (random() < 0.1 ? { ...record, title: `changed ${write}` } : record))
        .concat(random() < 0.5 ? [{ id: `new-${write}`, title: 'Nouveau ☃' }] : []);
      if (random() < 0.3) next.reverse();
      const after = RecordBytes.of(next, { records: list, bytes });
      expect(texts(after)).toEqual(next.map((r) => JSON.stringify(r)));
      next.forEach((record, i) => {
        const inFile = records.includes(record as (typeof records)[number]);
        expect(after.buffer[i], `write ${write}, record ${i}`).toBe(inFile ? 0 : 1);
        if (inFile) expect(after.start[i]).toBe(spans[2 * records.indexOf(record as (typeof records)[number])]);
      });
      expect(isView(after.buffers[0], file)).toBe(true);
      // The second buffer holds only the records outside the file, a comma between each.
      const outside = next.filter((record) => !records.includes(record as (typeof records)[number]));
      expect(decoder.decode(after.buffers[1])).toBe(outside.map((r) => JSON.stringify(r)).join(','));
      [list, bytes] = [next, after];
    }
  });
});
