/**
 * `content/categories.yaml`: deal categories (each in the `deals` or `programs` scope),
 * startup categories and startup listing sources.
 */
import * as z from 'zod';
import { httpUrl, slug, text } from './fields.ts';

export const SCOPES = ['deals', 'programs'] as const;
export const ScopeSchema = z.enum(SCOPES);

export const DealCategorySchema = z.strictObject({
  slug: slug(),
  name: text(100),
  scope: ScopeSchema,
  description: text(500).optional(),
});

export const StartupCategorySchema = z.strictObject({
  slug: slug(),
  name: text(100),
  description: text(500).optional(),
});

export const StartupSourceSchema = z.strictObject({
  slug: slug(),
  name: text(100),
  url: httpUrl().optional(),
});

export const CategoriesFileSchema = z.strictObject({
  deals: z.array(DealCategorySchema).min(1),
  startups: z.array(StartupCategorySchema).default([]),
  sources: z.array(StartupSourceSchema).default([]),
});

export type Scope = z.output<typeof ScopeSchema>;
export type DealCategory = z.output<typeof DealCategorySchema>;
export type StartupCategory = z.output<typeof StartupCategorySchema>;
export type StartupSource = z.output<typeof StartupSourceSchema>;
export type CategoriesFile = z.output<typeof CategoriesFileSchema>;
