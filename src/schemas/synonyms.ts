/**
 * `content/synonyms.yaml` (optional): words editors declare equivalent for search. `two-way`
 * groups make every term stand for every other; `one-way` rules let the term on the left also
 * search the terms on the right, not the reverse. Terms may be several words (`y combinator`).
 */
import * as z from 'zod';

/** Longest term and most terms per entry: a query is expanded per term, so both stay small. */
export const MAX_TERM_LENGTH = 60;
export const MAX_TERMS_PER_ENTRY = 10;

/** One search term: a word or a phrase, with at least one letter or digit. */
export const SynonymTermSchema = z
  .string()
  .trim()
  .min(1)
  .max(MAX_TERM_LENGTH)
  .regex(/[\p{L}\p{N}]/u, { error: 'expected a word or phrase with letters or digits' });

export const SynonymsFileSchema = z.strictObject({
  'two-way': z
    .array(z.array(SynonymTermSchema).min(2).max(MAX_TERMS_PER_ENTRY))
    .max(2_000)
    .default([])
    .describe('Groups of terms that all mean the same: a query with any of them also searches the others.'),
  'one-way': z
    .record(SynonymTermSchema, z.array(SynonymTermSchema).min(1).max(MAX_TERMS_PER_ENTRY))
    .default({})
    .describe('term: [terms it also searches]; a query with the term on the left also searches those on the right, not the reverse.'),
});

export type SynonymsFile = z.output<typeof SynonymsFileSchema>;
export type SynonymsFileInput = z.input<typeof SynonymsFileSchema>;
