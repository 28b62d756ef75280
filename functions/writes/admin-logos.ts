/**
 * A deal's or startup's logo from the admin (issue 16): PUT the image itself as the body
 * (`/admin/deals/logo?slug=…`), checked and made into the square WebP the site shows
 * (src/logos/logo-image.ts: the type read from the bytes, SVG rasterised, decompression bombs
 * refused), committed as `logos/<kind>/<slug>.webp` in the content repository, authored by the
 * admin; the record's other logo files go in the same commit, so the upload is the one the
 * build uses. DELETE removes the record's logo files. Either way the running server shows the
 * change at once (functions/site/live-logos.ts). GET tells the admin's Logo panel what the
 * record shows now and whether it has a file to remove.
 */
import { createHash } from 'node:crypto';
import { paths } from '../../src/agents/site-urls.ts';
import type { Catalog } from '../../src/catalog/catalog.ts';
import { logoFolder } from '../../src/logos/logo-files.ts';
import { optimiseLogo } from '../../src/logos/logo-image.ts';
import { LOGO_UPLOAD_TYPES, MAX_LOGO_BYTES } from '../../src/logos/logo-upload.ts';
import type { ContentRecord } from '../../src/pipeline/record-files.ts';
import type { LogoState } from '../../src/schemas/answers.ts';
import { requireAdmin } from '../auth/guard.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { ApiError } from '../http/errors.ts';
import { mediaType, readRawBody } from '../http/request-body.ts';
import { describeName, findRecord, invalid, NO_STORE, notFound, type AdminWriteDeps } from './admin-records.ts';
import { DEALS, STARTUPS, type RecordKind } from './record-kinds.ts';
import { logoFilesOf } from './record-logos.ts';
import { applyChange } from './record-writes.ts';

/**
 * GET `?id=` or `?slug=`: for the admin's Logo panel, the image the record shows now (drafts
 * too), as `image/webp` when the request asks for an image rather than JSON (an `<img>`), else
 * `LogoState`: where that image is (this address) and the record's logo file, if any.
 */
export async function getLogo<T extends ContentRecord>(request: Request, deps: AdminWriteDeps, kind: RecordKind<T>): Promise<Response> {
  await requireAdmin(request, deps);
  const { slug } = named(deps.state().catalog, kind, nameOf(request, kind));
  const image = await deps.logos.current(kind.logos, slug);
  if (asksForImage(request)) {
    if (!image) throw new ApiError(404, 'not_found', `The ${kind.noun} \`${slug}\` has no logo image: the site draws its monogram.`, { hint: 'Upload one with PUT.' });
    return new Response(new Uint8Array(image), { headers: { 'Content-Type': 'image/webp', 'X-Content-Type-Options': 'nosniff', ...NO_STORE } });
  }
  const files = await logoFilesOf(deps.store, kind.logos, slug);
  const version = image ? createHash('sha256').update(image).digest('base64url').slice(0, 12) : '';
  const state: LogoState = { success: true, slug, image: image ? `/api/v1/admin/${kind.logos}/logo?slug=${slug}&v=${version}` : null, file: files[0] ?? null };
  return answerResponse(request, jsonAnswer(200, state, NO_STORE));
}

/** PUT `?id=` or `?slug=`, the image as the body: `{ success, slug, logo, commit }`. */
export async function putLogo<T extends ContentRecord>(request: Request, deps: AdminWriteDeps, kind: RecordKind<T>): Promise<Response> {
  const session = await requireAdmin(request, deps);
  const name = nameOf(request, kind);
  const type = mediaType(request);
  if (!(LOGO_UPLOAD_TYPES as readonly string[]).includes(type)) {
    throw new ApiError(415, 'bad_request', `Content-Type ${type || '(none)'} is not an image type a logo may have.`, {
      hint: `Send the image itself as the body, with its type: ${LOGO_UPLOAD_TYPES.join(', ')}.`,
    });
  }
  const made = await optimiseLogo(await readRawBody(request, MAX_LOGO_BYTES));
  if (!made.ok) {
    throw new ApiError(400, 'validation_error', `The logo is ${made.problem === 'too large' ? 'too large' : 'not a usable image'}: ${made.detail}.`, {
      hint: 'Upload a PNG, JPEG, WebP, GIF, SVG or AVIF of at most 1 MB and 25 million pixels; a square one shows best.',
    });
  }
  let slug = '';
  const { commit } = await applyChange(deps, kind, async (catalog) => {
    slug = named(catalog, kind, name).slug;
    const path = `${logoFolder(kind.logos)}/${slug}.webp`;
    const others = (await logoFilesOf(deps.store, kind.logos, slug)).filter((file) => file !== path);
    return {
      upserts: [],
      removals: [],
      files: [...others.map((file) => ({ path: file, text: null })), { path, text: made.webp }],
      message: `Logo for ${kind.noun} ${slug}`,
      actor: session.email,
    };
  });
  return answerResponse(request, jsonAnswer(200, { success: true, slug, logo: paths.logo(kind.logos, slug), commit }, NO_STORE));
}

/** DELETE `?id=` or `?slug=`: the record's logo files go (404 when it has none); `{ success, slug, commit }`. */
export async function deleteLogo<T extends ContentRecord>(request: Request, deps: AdminWriteDeps, kind: RecordKind<T>): Promise<Response> {
  const session = await requireAdmin(request, deps);
  const name = nameOf(request, kind);
  let slug = '';
  const { commit } = await applyChange(deps, kind, async (catalog) => {
    slug = named(catalog, kind, name).slug;
    const files = await logoFilesOf(deps.store, kind.logos, slug);
    if (files.length === 0) throw new ApiError(404, 'not_found', `The ${kind.noun} \`${slug}\` has no logo file.`, { hint: 'Its page shows the monogram of its name, or the image of its logoUrl.' });
    return { upserts: [], removals: [], files: files.map((file) => ({ path: file, text: null })), message: `Remove the logo of ${kind.noun} ${slug}`, actor: session.email };
  });
  return answerResponse(request, jsonAnswer(200, { success: true, slug, commit }, NO_STORE));
}

export const getDealLogo = (request: Request, deps: AdminWriteDeps): Promise<Response> => getLogo(request, deps, DEALS);
export const getStartupLogo = (request: Request, deps: AdminWriteDeps): Promise<Response> => getLogo(request, deps, STARTUPS);
export const putDealLogo = (request: Request, deps: AdminWriteDeps): Promise<Response> => putLogo(request, deps, DEALS);
export const deleteDealLogo = (request: Request, deps: AdminWriteDeps): Promise<Response> => deleteLogo(request, deps, DEALS);
export const putStartupLogo = (request: Request, deps: AdminWriteDeps): Promise<Response> => putLogo(request, deps, STARTUPS);
export const deleteStartupLogo = (request: Request, deps: AdminWriteDeps): Promise<Response> => deleteLogo(request, deps, STARTUPS);

// --- internal ---

/** An `<img>` asks for images (`image/webp,image/*,…`); the admin's scripts ask for JSON. */
function asksForImage(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  return accept.includes('image/') && !accept.includes('application/json');
}

/** `id` and/or `slug` from the query (at least one). */
function nameOf<T extends ContentRecord>(request: Request, kind: RecordKind<T>): { id?: string; slug?: string } {
  const params = new URL(request.url).searchParams;
  const id = params.get('id')?.trim() || undefined;
  const slug = params.get('slug')?.trim() || undefined;
  if (id === undefined && slug === undefined) throw invalid(kind, `id or slug is required to name the ${kind.noun} whose logo this is.`);
  return { ...(id === undefined ? {} : { id }), ...(slug === undefined ? {} : { slug }) };
}

/** The record named, drafts included, as the catalog has it now. */
function named<T extends ContentRecord>(catalog: Catalog, kind: RecordKind<T>, name: { id?: string; slug?: string }): T {
  const record = findRecord(catalog, kind, name);
  if (!record) throw notFound(kind, describeName(name));
  return record;
}
