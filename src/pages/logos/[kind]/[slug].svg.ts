/**
 * Logo images, built with the site: `/logos/deals/<slug>.svg` and `/logos/startups/<slug>.svg`
 * for every record, as the content build made them (src/logos/build-logos.ts), or the name's
 * monogram when it made none (a build whose logo step did not run).
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { monogramSvg } from '../../../logos/monogram.ts';
import { builtLogo, siteCatalog } from '../../../site-data.ts';

export const getStaticPaths: GetStaticPaths = () => {
  const data = siteCatalog();
  return [
    ...data.deals.map((d) => ({ params: { kind: 'deals', slug: d.slug }, props: { name: d.provider } })),
    ...data.startups.map((s) => ({ params: { kind: 'startups', slug: s.slug }, props: { name: s.name } })),
  ];
};

export const GET: APIRoute = ({ params, props }) => {
  const kind = params.kind === 'startups' ? 'startups' : 'deals';
  return new Response(builtLogo(kind, String(params.slug)) ?? monogramSvg(String(props.name)), { headers: { 'Content-Type': 'image/svg+xml' } });
};
