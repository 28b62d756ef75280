/**
 * Logo images, built with the site: `/logos/deals/<slug>.webp` and `/logos/startups/<slug>.webp`
 * for every record the content build made an image for (src/logos/build-logos.ts). Records
 * without one have no file: their pages draw the name's monogram (src/logos/logo-markup.ts).
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { builtLogo, builtLogoIndex } from '../../../site-data.ts';

export const getStaticPaths: GetStaticPaths = () => {
  const index = builtLogoIndex();
  return [...index.deals.map((slug) => ({ params: { kind: 'deals', slug } })), ...index.startups.map((slug) => ({ params: { kind: 'startups', slug } }))];
};

export const GET: APIRoute = ({ params }) => {
  const image = builtLogo(params.kind === 'startups' ? 'startups' : 'deals', String(params.slug));
  return image ? new Response(new Uint8Array(image), { headers: { 'Content-Type': 'image/webp' } }) : new Response(null, { status: 404 });
};
