/**
 * The admin rows of the route table for records besides the SPEC deal writes (routes.ts spreads
 * them into `API_ROUTES`): startups for sale under /admin/startups, and the history, revert and
 * logo of deals and startups, one row builder for both kinds so their documents cannot differ.
 */
import { LOGO_UPLOAD_TYPES } from '../../src/logos/logo-upload.ts';
import { HISTORY_PAGE, HISTORY_REACH, STARTUP_PAGE } from '../../src/schemas/query.ts';
import {
  deleteDealLogo,
  deleteStartupLogo,
  deleteStartups,
  getAdminStartups,
  getDealHistory,
  getDealLogo,
  getStartupHistory,
  getStartupLogo,
  postDealRevert,
  postStartupRevert,
  postStartups,
  putDealLogo,
  putStartup,
  putStartupLogo,
} from './loaded-on-first-use.ts';
import type { Handler } from '../deps.ts';
import type { CatalogExamples } from '../docs/examples.ts';
import { answer, deleteParameters, errors, ERRORS_ALL, etag, IF_MATCH, json, nameParameters, notModified, ok, pageParameters, ref, type Json } from '../docs/openapi-kit.ts';
import type { ApiRoute } from './routes.ts';
import { LOGO_SIZE } from '../../src/logos/monogram.ts';

export const ADMIN_RECORD_ROUTES: readonly ApiRoute[] = [
  startupsRow(),
  ...historyRows({
    noun: 'deal',
    called: 'deal',
    tag: 'deals',
    reverted: 'DealReverted',
    history: getDealHistory,
    revert: postDealRevert,
    getLogo: getDealLogo,
    putLogo: putDealLogo,
    deleteLogo: deleteDealLogo,
    example: (e) => ({ id: e.dealId, slug: e.dealSlug, revert: e.revertDeal }),
  }),
  ...historyRows({
    noun: 'startup',
    called: 'listing',
    tag: 'startups',
    reverted: 'StartupReverted',
    history: getStartupHistory,
    revert: postStartupRevert,
    getLogo: getStartupLogo,
    putLogo: putStartupLogo,
    deleteLogo: deleteStartupLogo,
    example: (e) => ({ id: e.startupId, slug: e.startupSlug, revert: e.revertStartup }),
  }),
];

// --- internal ---

/** `/admin/startups`: list or look up, create, update, delete. */
function startupsRow(): ApiRoute {
  return {
    path: '/admin/startups',
    cors: 'same-origin',
    rate: 'write',
    methods: {
      GET: {
        handler: getAdminStartups,
        access: 'admin',
        doc: (examples) => ({
          operationId: 'listAdminStartups',
          tags: ['admin', 'startups'],
          summary: 'List startups for sale, or look one up (admin)',
          description:
            "Without `id` or `slug`: every published listing in the catalog's order, a page at a time (`total` counts them all; drafts: GET /admin/drafts). With `id` and/or `slug` (both must name the same listing, a draft too): `{ success, startup }`, whose ETag is what `If-Match` of PUT, DELETE and revert takes.",
          parameters: [...nameParameters('listing', { id: examples.startupId, slug: examples.startupSlug }, 'Given: one listing is answered.'), ...pageParameters(STARTUP_PAGE)],
          responses: {
            '200': ok('One listing (with `id` or `slug`), or a page of them.', { oneOf: [ref('StartupAnswer'), ref('StartupList')] }, { headers: etag }),
            '304': notModified(),
            ...errors('400', '401', '403', '404', '429', '500'),
          },
        }),
      },
      POST: {
        handler: postStartups,
        access: 'admin',
        doc: (examples) => ({
          operationId: 'createStartup',
          tags: ['admin', 'startups'],
          summary: 'Create a startup listing',
          description:
            "One listing, its defaults filled (`id`, `slug` from the name, `featured` `false`, `forSale` `true`, `lastUpdated` today), checked by the build's rules (category and source from content/categories.yaml) and committed alone, authored by the admin. An existing slug is a 400 `conflict`. Same-origin only (`Origin`).",
          parameters: [ERRORS_ALL('the listing')],
          requestBody: { required: true, content: json(ref('StartupInput'), examples.createStartup) },
          responses: {
            '200': ok('Created (the listing, with its ETag).', ref('StartupAnswer'), { headers: etag }),
            ...errors('400', '401', '403', '413', '415', '429', '500', '503'),
          },
        }),
      },
      PUT: {
        handler: putStartup,
        access: 'admin',
        doc: (examples) => ({
          operationId: 'updateStartup',
          tags: ['admin', 'startups'],
          summary: 'Update a startup listing by id or slug',
          description:
            '`id` and/or `slug` name the listing (at least one is required); with an `id`, a new `slug` renames it (its file) and keeps its id. Every other field given replaces the stored one; `null` removes an optional field. `lastUpdated` becomes today unless given.',
          parameters: [IF_MATCH('listing'), ERRORS_ALL('the listing')],
          requestBody: { required: true, content: json(ref('StartupUpdate'), examples.updateStartup) },
          responses: {
            '200': ok('Updated (the listing as now served, with its ETag).', ref('StartupAnswer'), { headers: etag }),
            ...errors('400', '401', '403', '404', '412', '413', '415', '429', '500', '503'),
          },
        }),
      },
      DELETE: {
        handler: deleteStartups,
        access: 'admin',
        doc: (examples) => ({
          operationId: 'deleteStartup',
          tags: ['admin', 'startups'],
          summary: 'Delete startup listings by id, ids or slug',
          description:
            'Deletes the listings named by `id`, `ids` (comma-separated ids) and `slug`, in one commit. At least one of `id`, `ids` or `slug` is required: without any the answer is 400 `validation_error`. Every listing named must exist (else 404, nothing deleted). `If-Match` applies when one listing is named.',
          parameters: deleteParameters('listing', { id: examples.startupId, slug: examples.startupSlug }),
          responses: { '200': ok('Deleted.', ref('WriteResult')), ...errors('400', '401', '403', '404', '412', '429', '500', '503') },
        }),
      },
    },
  };
}

/** What the history and revert rows of one kind say about it. */
interface HistoryKind {
  /** `deal` or `startup`, as in paths (`/admin/deals/…`) and operation ids (`dealHistory`). */
  noun: 'deal' | 'startup';
  /** How the documents call one. */
  called: string;
  tag: 'deals' | 'startups';
  reverted: string;
  example: (examples: CatalogExamples) => { id?: string | undefined; slug?: string | undefined; revert?: Json | undefined };
  history: Handler;
  revert: Handler;
  getLogo: Handler;
  putLogo: Handler;
  deleteLogo: Handler;
}

/** The `/admin/<kind>s/history`, `/admin/<kind>s/revert` and `/admin/<kind>s/logo` rows of one kind. */
function historyRows(kind: HistoryKind): ApiRoute[] {
  const { noun, called, tag } = kind;
  const capitalised = `${noun.charAt(0).toUpperCase()}${noun.slice(1)}`;
  const named = (examples: CatalogExamples): Json[] => nameParameters(called, kind.example(examples), 'One of `id` or `slug` is required; given both, they must name the same one.');
  return [
    {
      path: `/admin/${noun}s/history`,
      cors: 'same-origin',
      rate: 'write',
      methods: {
        GET: {
          handler: kind.history,
          access: 'admin',
          doc: (examples) => ({
            operationId: `${noun}History`,
            tags: ['admin', tag],
            summary: `A ${called}'s changes, from the content repository's history`,
            description: `The commits that changed the ${called}'s file, newest first, a page at a time (\`more\`: older ones follow), whether made through the admin (\`via: admin\`, authored by the admin) or by hand in git (\`via: git\`): who, when, the commit message, and every field that changed, old → new, as written in the file. A rename (a slug change) is followed back to the earlier file name, by git's rename detection (a file whose text changed by more than half in the same commit is not followed). Merge commits are not listed; the commits they bring in are. A deleted ${called} is named by its \`slug\`.`,
            parameters: [...named(examples), ...pageParameters(HISTORY_PAGE, HISTORY_REACH - 1)],
            responses: {
              '200': ok('One page of the history.', ref('RecordHistory'), { headers: etag }),
              '304': notModified(),
              ...errors('400', '401', '403', '404', '429', '500', '503'),
            },
          }),
        },
      },
    },
    {
      path: `/admin/${noun}s/revert`,
      cors: 'same-origin',
      rate: 'write',
      methods: {
        POST: {
          handler: kind.revert,
          access: 'admin',
          doc: (examples) => ({
            operationId: `revert${capitalised}`,
            tags: ['admin', tag],
            summary: `Revert a ${called} to a version from its history`,
            description: `Puts the ${called} back as a commit of its history left it (every field, its slug too: a slug changed since renames the file back; \`lastUpdated\` as it was then), as one new commit authored by the admin, through the checks of an edit: that version must still be valid (a category may have gone since) and its slug free. \`commit\` is a full commit id listed by the history, among the ${called}'s last ${HISTORY_REACH} changes, and not one that deleted it. A deleted ${called} is restored by naming its \`slug\`. \`If-Match\` as for an edit.`,
            parameters: [IF_MATCH(called)],
            requestBody: { required: true, content: json(ref('Revert'), kind.example(examples).revert) },
            responses: {
              '200': ok(`Reverted (the ${called} as now served, with its ETag).`, ref(kind.reverted), { headers: etag }),
              ...errors('400', '401', '403', '404', '412', '413', '415', '429', '500', '503'),
            },
          }),
        },
      },
    },
    {
      path: `/admin/${noun}s/logo`,
      cors: 'same-origin',
      rate: 'write',
      methods: {
        GET: {
          handler: kind.getLogo,
          access: 'admin',
          doc: (examples) => ({
            operationId: `get${capitalised}Logo`,
            tags: ['admin', tag],
            summary: `A ${called}'s logo as the site shows it now`,
            description: `What the admin's Logo panel shows. Asked for JSON: where the image the ${called} shows now is (uploaded or committed since the build, or built; a draft's too, which no public address serves) and its logo file in the content repository, if any (\`null\` when the image comes from \`logoUrl\`: nothing to remove). Asked for an image (\`Accept\` naming \`image/…\` and not \`application/json\`, as an \`<img>\` does): that image, or 404 when the ${called} shows its monogram. \`Cache-Control: no-store\`.`,
            parameters: named(examples),
            responses: {
              '200': answer('The logo now.', { content: { ...json(ref('LogoState')), 'image/webp': { schema: { type: 'string', format: 'binary' } } } }),
              ...errors('400', '401', '403', '404', '429', '500'),
            },
          }),
        },
        PUT: {
          handler: kind.putLogo,
          access: 'admin',
          doc: (examples) => ({
            operationId: `put${capitalised}Logo`,
            tags: ['admin', tag],
            summary: `Upload a ${called}'s logo`,
            description: `The image itself is the body (at most 1 MB; PNG, JPEG, WebP, GIF, SVG or AVIF, its type read from the bytes, not the header; at most 25 million pixels). It is made into the square ${LOGO_SIZE}-pixel WebP the site shows (an SVG is rasterised: no editor SVG is ever served) and committed as \`content/logos/${tag}/<slug>.webp\`, authored by the admin; the ${called}'s other logo files go in the same commit, so this is the logo every later build uses. The running site serves it at once at \`/logos/${tag}/<slug>.webp\` and shows it on the ${called}'s page and in lists. A rename or delete of the ${called} moves or removes its logo with it. Same-origin only (\`Origin\`).`,
            parameters: named(examples),
            requestBody: { required: true, content: Object.fromEntries(LOGO_UPLOAD_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])) },
            responses: {
              '200': ok('Uploaded (where the site serves it, and the commit).', ref('LogoChange')),
              ...errors('400', '401', '403', '404', '413', '415', '429', '500', '503'),
            },
          }),
        },
        DELETE: {
          handler: kind.deleteLogo,
          access: 'admin',
          doc: (examples) => ({
            operationId: `delete${capitalised}Logo`,
            tags: ['admin', tag],
            summary: `Remove a ${called}'s logo`,
            description: `Removes the ${called}'s files under \`content/logos/${tag}/\` in one commit, authored by the admin: its pages show the monogram of its name at once, and after the next build the image of its \`logoUrl\`, when it has one. 404 when it has no logo file.`,
            parameters: named(examples),
            responses: { '200': ok('Removed (the commit).', ref('LogoChange')), ...errors('400', '401', '403', '404', '429', '500', '503') },
          }),
        },
      },
    },
  ];
}
