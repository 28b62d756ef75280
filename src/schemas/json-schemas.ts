/**
 * JSON Schemas (draft 2020-12) generated from the zod schemas: for editors (autocomplete and
 * validation of content files) and for the OpenAPI document. Never written by hand.
 */
import * as z from 'zod';
import { CategoriesFileSchema } from './category.ts';
import { DealFrontMatterSchema, DealSchema } from './deal.ts';
import { SiteFileSchema } from './site.ts';
import { StartupFrontMatterSchema, StartupSchema } from './startup.ts';
import { SynonymsFileSchema } from './synonyms.ts';

/** File name → JSON Schema, as written to `generated/schemas/`. */
export function contentJsonSchemas(): Record<string, object> {
  const schema = (s: z.ZodType, title: string, description: string) => ({
    ...z.toJSONSchema(s, { io: 'input' }),
    title,
    description,
  });
  return {
    'deal.json': schema(DealSchema, 'Deal', 'A deal as the API returns it (SPEC "Deal").'),
    'deal-front-matter.json': schema(DealFrontMatterSchema, 'Deal front matter', 'Front matter of content/deals/<slug>.md; the body is the description.'),
    'startup.json': schema(StartupSchema, 'Startup listing', 'A startup listing as the API returns it.'),
    'startup-front-matter.json': schema(StartupFrontMatterSchema, 'Startup front matter', 'Front matter of content/startups/<slug>.md; the body is the description.'),
    'categories.json': schema(CategoriesFileSchema, 'Categories', 'content/categories.yaml'),
    'site.json': schema(SiteFileSchema, 'Site', 'content/site.yaml'),
    'synonyms.json': schema(SynonymsFileSchema, 'Synonyms', 'content/synonyms.yaml (optional): search synonyms, two-way groups and one-way rules.'),
  };
}
