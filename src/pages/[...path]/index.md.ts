/**
 * Markdown twins, built with the site: `/<page>/index.md` for every public page. The server
 * answers `Accept: text/markdown` on a page with its twin.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { twinFor, twinPaths } from '../../agents/markdown-twins.ts';
import { siteCatalog } from '../../site-data.ts';

export const getStaticPaths: GetStaticPaths = () => twinPaths(siteCatalog()).map((path) => ({ params: { path: path.replace(/^\/|\/$/g, '') || undefined }, props: { path } }));

export const GET: APIRoute = ({ props }) => new Response(twinFor(String(props.path), siteCatalog()) ?? '', { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
