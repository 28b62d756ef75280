/**
 * `/logos/index.json`: which deals and startups have a logo image, so instant search draws the
 * same logo or monogram as the built cards without asking for images that do not exist.
 */
import type { APIRoute } from 'astro';
import { builtLogoIndex } from '../../site-data.ts';

export const GET: APIRoute = () => new Response(JSON.stringify(builtLogoIndex()), { headers: { 'Content-Type': 'application/json' } });
