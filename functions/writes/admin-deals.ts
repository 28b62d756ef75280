/**
 * Admin deal management (SPEC POST/PUT/DELETE /deals): create one deal or bulk-upsert many by
 * slug, update by id and/or slug (a new slug renames the file and keeps the id), delete by id,
 * slug or a list of ids. Each request is one commit. `PUT`/`DELETE` honour `If-Match`.
 */
import { randomBytes } from 'node:crypto';
import { SLUG_PATTERN, slugify } from '../../src/schemas/fields.ts';
import type { Catalog } from '../../src/catalog/catalog.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import { requireAdmin, type SessionDeps } from '../auth/guard.ts';
import { applyDealChange, type DealWriteDeps } from './deal-writes.ts';
import type { Deps } from '../deps.ts';
import { answerResponse, etagOf, jsonAnswer, matchesEtag } from '../http/answer.ts';
import { ApiError } from '../http/errors.ts';
import { asJsonObject, readBody } from '../http/request-body.ts';

/** An admin's session, then a deal write. */
export type AdminDealDeps = SessionDeps & DealWriteDeps;

const NO_STORE = { 'Cache-Control': 'no-store' };
const encoder = new TextEncoder();

export async function postDeals(request: Request, deps: AdminDealDeps): Promise<Response> {
  const session = await requireAdmin(request, deps);
  const body = asJsonObject(await readBody(request, 32 * 1024 * 1024));
  const today = deps.clock().toISOString().slice(0, 10);

  if ('deals' in body) {
    if (!Array.isArray(body.deals) || body.deals.length === 0) throw invalid('deals must be a non-empty array of deals.');
    const inputs = body.deals.map((item, index) => ({ index, input: asJsonObject(item, `deals[${index}]`) }));
    let created = 0;
    let slugs: string[] = [];
    await applyDealChange(deps, (catalog) => {
      created = 0;
      const seen = new Set<string>();
      const upserts = inputs.map(({ index, input }) => {
        const slug = slugFor(input, `deals[${index}]`);
        if (seen.has(slug)) throw new ApiError(400, 'conflict', `deals[${index}]: slug \`${slug}\` appears twice in this request.`, { hint: 'Give every deal its own slug.' });
        seen.add(slug);
        const existing = catalog.editable.dealBySlug.get(slug);
        if (!existing) created++;
        return existing ? merge(existing, input, today) : newDeal({ ...input, slug }, today);
      });
      slugs = upserts.map((d) => d.slug);
      return { upserts, removals: [], message: `Bulk upsert of ${upserts.length} deals`, actor: session.email };
    });
    return answerResponse(request, jsonAnswer(200, { success: true, created, updated: slugs.length - created, deleted: 0, slugs }, NO_STORE));
  }

  const slug = slugFor(body, 'deal');
  await applyDealChange(deps, (catalog) => {
    if (catalog.editable.dealBySlug.has(slug)) {
      throw new ApiError(400, 'conflict', `A deal with slug \`${slug}\` already exists.`, { hint: 'Choose another slug, or update the deal with PUT.' });
    }
    const deal = newDeal({ ...body, slug }, today);
    return { upserts: [deal], removals: [], message: `Add ${deal.draft === true ? 'draft ' : ''}deal ${slug}`, actor: session.email };
  });
  return dealAnswer(request, deps, slug);
}

export async function putDeals(request: Request, deps: AdminDealDeps): Promise<Response> {
  const session = await requireAdmin(request, deps);
  const body = asJsonObject(await readBody(request));
  const id = optionalText(body.id, 'id');
  const slug = optionalText(body.slug, 'slug');
  if (id === undefined && slug === undefined) throw invalid('id or slug is required to name the deal to update.');
  const changes: Record<string, unknown> = { ...body };
  delete changes.id;
  const today = deps.clock().toISOString().slice(0, 10);
  let finalSlug = '';
  await applyDealChange(deps, (catalog) => {
    // With an id, the id names the deal and a different slug renames it.
    // Drafts too (`catalog.editable`): `draft: false` (or `null`) publishes one.
    const current = id !== undefined ? catalog.editable.dealById.get(id) : catalog.editable.dealBySlug.get(slug as string);
    if (!current) throw notFound(id !== undefined ? `id \`${id}\`` : `slug \`${slug}\``);
    checkIfMatch(request, current);
    const updated = merge(current, changes, today);
    if (updated.slug !== current.slug && catalog.editable.dealBySlug.has(updated.slug)) {
      throw new ApiError(400, 'conflict', `A deal with slug \`${updated.slug}\` already exists.`, { hint: 'Choose another slug.' });
    }
    const renamed = updated.slug !== current.slug;
    finalSlug = updated.slug;
    return {
      upserts: [updated],
      removals: renamed ? [current.slug] : [],
      message: renamed ? `Rename deal ${current.slug} to ${updated.slug}` : `${updateVerb(current, updated)} deal ${current.slug}`,
      actor: session.email,
    };
  });
  return dealAnswer(request, deps, finalSlug);
}

export async function deleteDeals(request: Request, deps: AdminDealDeps): Promise<Response> {
  const session = await requireAdmin(request, deps);
  const params = new URL(request.url).searchParams;
  const ids = [...(params.get('ids') ?? '').split(','), params.get('id') ?? ''].map((s) => s.trim()).filter(Boolean);
  const slug = params.get('slug')?.trim() || undefined;
  if (ids.length === 0 && slug === undefined) throw invalid('id, ids or slug is required to name the deals to delete.');
  let deals: Deal[] = [];
  await applyDealChange(deps, (catalog) => {
    const targets = new Map<string, Deal>();
    const missing: string[] = [];
    for (const id of ids) {
      const deal = catalog.editable.dealById.get(id);
      if (deal) targets.set(deal.slug, deal);
      else missing.push(`id \`${id}\``);
    }
    if (slug !== undefined) {
      const deal = catalog.editable.dealBySlug.get(slug);
      if (deal) targets.set(deal.slug, deal);
      else missing.push(`slug \`${slug}\``);
    }
    if (missing.length > 0) throw notFound(missing.join(', '));
    deals = [...targets.values()];
    if (deals.length === 1) checkIfMatch(request, deals[0] as Deal);
    return {
      upserts: [],
      removals: deals.map((d) => d.slug),
      message: deals.length === 1 ? `Delete deal ${deals[0]?.slug}` : `Delete ${deals.length} deals`,
      actor: session.email,
    };
  });
  return answerResponse(request, jsonAnswer(200, { success: true, deleted: deals.length, ids: deals.map((d) => d.id), slugs: deals.map((d) => d.slug) }, NO_STORE));
}

/** The ETag a GET of this deal (`?id=` or `?slug=`) carries, for `If-Match`. */
export function dealEtag(deal: Deal): string {
  return etagOf(encoder.encode(JSON.stringify({ success: true, deal })));
}

/**
 * The deal a body describes, as saving it would store it (before validation), for a preview:
 * with the `id` of a stored deal (a draft too), the body's fields over it, as PUT applies them;
 * otherwise a new deal, as POST makes it. `replaces`: the stored deal it would change.
 */
export function dealFromBody(catalog: Catalog, body: Record<string, unknown>, today: string): { deal: Deal; replaces: Deal | undefined } {
  const replaces = typeof body.id === 'string' ? catalog.editable.dealById.get(body.id) : undefined;
  if (replaces) return { deal: merge(replaces, body, today), replaces };
  return { deal: newDeal({ ...body, slug: slugFor(body, 'deal') }, today), replaces };
}

// --- internal ---

/** The answer after a write: the deal as readers now see it, with its ETag. */
function dealAnswer(request: Request, deps: Pick<Deps, 'state'>, slug: string): Promise<Response> {
  const deal = deps.state().catalog.editable.dealBySlug.get(slug);
  const answer = jsonAnswer(200, { success: true, deal }, { ...NO_STORE, ...(deal ? { ETag: dealEtag(deal) } : {}) });
  return answerResponse(request, answer);
}

function newDeal(input: Record<string, unknown>, today: string): Deal {
  return {
    status: 'active',
    featured: false,
    recommended: false,
    verified: false,
    lastUpdated: today,
    ...input,
    id: typeof input.id === 'string' && input.id ? input.id : `d-${randomBytes(6).toString('hex').slice(0, 8)}`,
  } as Deal;
}

/** Apply changed fields; `null` removes an optional field. `lastUpdated` moves to today unless given. */
function merge(current: Deal, changes: Record<string, unknown>, today: string): Deal {
  const next: Record<string, unknown> = { ...current, lastUpdated: today };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  next.id = current.id;
  return next as Deal;
}

/** How a commit names an update: publishing a draft and taking a deal back to drafts are told apart. */
function updateVerb(current: Deal, updated: Deal): string {
  if (current.draft === true && updated.draft !== true) return 'Publish';
  if (current.draft !== true && updated.draft === true) return 'Unpublish';
  return 'Update';
}

function slugFor(input: Record<string, unknown>, where: string): string {
  if (typeof input.slug === 'string' && input.slug) {
    if (!SLUG_PATTERN.test(input.slug)) throw invalid(`${where}.slug: expected lowercase letters, digits and single hyphens, like \`cloud-credits\`.`);
    return input.slug;
  }
  const slug = typeof input.title === 'string' ? slugify(input.title) : '';
  if (slug) return slug;
  throw invalid(`${where}: a slug or a title is required.`);
}

function checkIfMatch(request: Request, deal: Deal): void {
  const ifMatch = request.headers.get('if-match');
  if (ifMatch === null) return;
  if (!matchesEtag(ifMatch, dealEtag(deal)) || (ifMatch.trim() !== '*' && ifMatch.trim().startsWith('W/'))) {
    throw new ApiError(412, 'conflict', 'The deal has changed since you read it.', {
      hint: 'GET the deal again, re-apply your change and send the new ETag in If-Match.',
    });
  }
}

function optionalText(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw invalid(`${name} must be a string.`);
  return value;
}

function invalid(message: string): ApiError {
  return new ApiError(400, 'validation_error', message, { hint: 'See /openapi.json for the Deal fields and these operations.' });
}

function notFound(what: string): ApiError {
  return new ApiError(404, 'not_found', `No deal matches ${what}.`, { hint: 'Verify the id or slug with GET /api/v1/deals?id=… or ?slug=….' });
}
