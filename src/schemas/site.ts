/** `content/site.yaml`: the site's identity, used by pages, llms.txt and the agent card. */
import * as z from 'zod';
import { httpUrl, text } from './fields.ts';

export const SiteSchema = z.strictObject({
  name: text(100),
  baseUrl: httpUrl(),
  description: text(1000),
  tagline: text(200).optional(),
  contact: z
    .strictObject({
      email: z.email().optional(),
      url: httpUrl().optional(),
    })
    .default({}),
});

export type Site = z.output<typeof SiteSchema>;
