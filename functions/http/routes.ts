/**
 * The route table: every API route and every document, one row each. The front door
 * (http/app.ts) routes, limits, grants CORS and adds lifecycle headers from these rows, and the
 * OpenAPI document (docs/openapi.ts) is a loop over them, so the two cannot drift. A new
 * endpoint is one row here and one handler.
 *
 * A row: `path` below `/api/v1` (also answered under the `/api` alias unless `unversioned`),
 * `cors` (public routes answer any origin; same-origin routes never grant another one), `rate`
 * (the limit policy of the route; an operation may name its own), `follows` (what its answers
 * are a function of, when not the catalog alone), and per method the handler,
 * who may call it (`access`: an `admin` operation is never granted to another origin either)
 * and its description for the OpenAPI document.
 */
import { llmsFullTxt, llmsTxt } from '../../src/agents/llms.ts';
import { paths } from '../../src/agents/site-urls.ts';
import { robotsTxt, sitemapXml } from '../../src/agents/sitemap.ts';
import type { Catalog } from '../../src/catalog/catalog.ts';
import { DealCategorySchema, StartupCategorySchema } from '../../src/schemas/category.ts';
import { ATOM_TYPE } from '../../src/agents/changes-atom.ts';
import { CHANGES_PARAMS, CHANGES_REACH, DEAL_LIST_PARAMS, PAGE_COMMITS, STARTUP_LIST_PARAMS, SUBMISSION_PAGE } from '../../src/schemas/query.ts';
import { getSession, postLogin, postLogout } from '../auth/sign-in.ts';
import { postPasswordReset, postPasswordResetRequest, postSignUp, postVerify } from '../auth/member-accounts.ts';
import { postSignInLinkRequest, postSignInWithLink } from '../auth/sign-in-link.ts';
import { postContentHook } from '../writes/content-hook.ts';
import { deleteSaved, getSaved, postSaved } from '../members/saved.ts';
import { getDashboard, getProfile, postProfile, postSeen } from '../members/dashboard.ts';
import { postAlertRound, postUnsubscribe } from '../members/alerts.ts';
import { getExport, postDelete } from '../members/privacy.ts';
import { MAX_SAVED_ITEMS } from '../../src/schemas/saved.ts';
import { getBilling, postCheckout, postPortal } from '../billing/member-billing.ts';
import { postBillingWebhook } from '../billing/webhook.ts';
import { SIGNATURE_TOLERANCE_SECONDS } from '../billing/stripe-gateway.ts';
import { PLAN_FEATURES, TRIAL_DAYS } from '../../src/schemas/billing.ts';
import { getCategories } from '../reads/categories.ts';
import { getChanges, getChangesAtom } from '../reads/changes.ts';
import { getDeals } from '../reads/deals.ts';
import { getHealth } from '../reads/health.ts';
import { getOidcCallback, getOidcStart } from '../auth/oidc-login.ts';
import { SUBMISSION_ID } from '../submissions/store.ts';
import { getSearchGaps } from '../reads/search-gaps.ts';
import { getAttention } from '../reads/attention.ts';
import { getStartups } from '../reads/startups.ts';
import { postSubmitDeal } from '../writes/submit-deal.ts';
import type { Deps, Handler } from '../deps.ts';
import { agentCard, apiCatalog, API_CATALOG_TYPE, authorizationServerMetadata, jsonWebKeySet, protectedResourceMetadata } from '../docs/discovery.ts';
import { documentText } from '../docs/document-cache.ts';
import type { CatalogExamples } from '../docs/examples.ts';
import { openApiDocument } from '../docs/openapi.ts';
import {
  answer,
  cached,
  CACHE_CONTROL,
  component,
  deleteParameters,
  errors,
  ERRORS_ALL,
  etag,
  headerRefs,
  IF_MATCH,
  json,
  jsonOrForm,
  LOCATION,
  MCP_HEADERS,
  notModified,
  ok,
  pageParameters,
  parameters,
  plainHeader,
  ref,
  SET_COOKIE,
  type Json,
} from '../docs/openapi-kit.ts';
import type { PolicyName } from './rate-limits.ts';
import { ADMIN_RECORD_ROUTES } from './admin-record-routes.ts';
import { approveSubmission, deleteDeals, getDrafts, getPreview, getSubmissions, postDeals, postPreview, putDeal, rejectSubmission } from './loaded-on-first-use.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Who may call an operation: anyone, a signed-in admin, a signed-in member (or admin), or anyone with a session changing the answer. */
export type Access = 'public' | 'admin' | 'member' | 'optional';

export interface Operation {
  handler: Handler;
  access: Access;
  /** The OpenAPI operation: id, tags, summary, description, parameters, body and responses by status. */
  doc: (examples: CatalogExamples) => Json;
}

export interface ApiRoute {
  path: string;
  cors: 'public' | 'same-origin';
  rate: PolicyName;
  /** Not part of the versioned API (the MCP and A2A endpoints): no `/api/v1` form, no successor link. */
  unversioned?: boolean;
  /**
   * `history`: the answers follow the content's history (the commit served), which may move
   * while the catalog stays as it was: the answer-cache step, which keeps answers per catalog
   * version, leaves them to the handler, which keeps them per commit.
   */
  follows?: 'history';
  methods: Partial<Record<Method, Operation>>;
}

/**
 * The MCP SDK is loaded on the first MCP request, not at start-up (it costs ~70 ms to import).
 * Its resources are documents of this table, read from the same cache as their GET answers.
 */
const handleMcp: Handler = async (request, deps) =>
  (await import('../mcp/handler.ts')).handleMcp(request, deps, (path, catalog) => {
    const route = documentRoute(path);
    if (!route || !('render' in route)) throw new Error(`${path} is not a document of the catalog`);
    return documentText(route, catalog, deps);
  });

/** The A2A SDK is loaded on the first A2A request, like the MCP SDK. */
const handleA2a: Handler = async (request, deps) => (await import('../a2a/handler.ts')).handleA2a(request, deps);

/** A preview's answer: the page's HTML, kept by nobody, indexed by nobody. */
const preview = answer('The rendered page.', {
  content: { 'text/html': { schema: { type: 'string' } } },
  headers: { 'Cache-Control': CACHE_CONTROL, 'X-Robots-Tag': plainHeader('`noindex, nofollow`: a preview is never indexed.') },
});

export const API_ROUTES: readonly ApiRoute[] = [
  {
    path: '/deals',
    cors: 'public',
    rate: 'read',
    methods: {
      GET: {
        handler: getDeals,
        access: 'public',
        doc: (examples) => ({
          operationId: 'listOrSearchDeals',
          tags: ['deals'],
          summary: 'List, search or look up deals',
          description:
            'Lists, searches and filters deals (or programs, with `scope`), or looks one up by `slug` or `id`, which answers the single-deal shape. Matching, ranking and ordering: the API guide (docs/api.md). `stats` counts every match before `limit`.',
          parameters: [
            ...parameters(DEAL_LIST_PARAMS),
            {
              name: 'Search-Intent',
              in: 'header',
              description: '`incremental`: a search sent while someone is still typing; answered as usual, not counted among finished searches (docs/search-gaps.md).',
              schema: { type: 'string', enum: ['incremental'] },
            },
          ],
          responses: {
            '200': ok('A single deal (with `slug` or `id`) or a list.', { oneOf: [ref('DealAnswer'), ref('DealList')] }, { headers: cached, examples: examples.deals }),
            '304': notModified(headerRefs(['ETag', 'Server-Timing'])),
            ...errors('400', '404', '429', '500'),
          },
        }),
      },
      POST: {
        handler: postDeals,
        access: 'admin',
        doc: (examples) => ({
          operationId: 'createDeal',
          tags: ['deals'],
          summary: 'Create a deal, or bulk-upsert deals by slug',
          description:
            'One deal: its defaults filled (`id`, `slug` from the title, `status` `active`, flags `false`, `lastUpdated` today); an existing slug is a 400 `conflict`. `{ "deals": [...] }`: every deal created or updated by slug, all or nothing, in one commit. Same-origin only (`Origin`).',
          parameters: [ERRORS_ALL('the deal')],
          requestBody: { required: true, content: json({ oneOf: [ref('DealInput'), ref('BulkDeals')] }, examples.createDeal) },
          responses: {
            '200': ok('Created (the deal, with its ETag), or bulk upsert processed (the counts).', { anyOf: [ref('DealAnswer'), ref('WriteResult')] }, { headers: etag }),
            ...errors('400', '401', '403', '413', '415', '429', '500', '503'),
          },
        }),
      },
      PUT: {
        handler: putDeal,
        access: 'admin',
        doc: (examples) => ({
          operationId: 'updateDeal',
          tags: ['deals'],
          summary: 'Update a deal by id or slug',
          description:
            '`id` and/or `slug` name the deal (at least one is required); with an `id`, a new `slug` renames the deal and keeps its id. Every other field given replaces the stored one; `null` removes an optional field. `lastUpdated` becomes today unless given.',
          parameters: [IF_MATCH('deal'), ERRORS_ALL('the deal')],
          requestBody: { required: true, content: json(ref('DealUpdate'), examples.updateDeal) },
          responses: {
            '200': ok('Updated (the deal as now served, with its ETag).', ref('DealAnswer'), { headers: etag }),
            ...errors('400', '401', '403', '404', '412', '413', '415', '429', '500', '503'),
          },
        }),
      },
      DELETE: {
        handler: deleteDeals,
        access: 'admin',
        doc: (examples) => ({
          operationId: 'deleteDeal',
          tags: ['deals'],
          summary: 'Delete deals by id, ids or slug',
          description:
            'Deletes the deals named by `id`, `ids` (comma-separated ids) and `slug`, in one commit. At least one of `id`, `ids` or `slug` is required: without any (or with only empty values) the answer is 400 `validation_error`. Every deal named must exist (else 404, nothing deleted). `If-Match` applies when one deal is named.',
          parameters: deleteParameters('deal', { id: examples.dealId, slug: examples.dealSlug }),
          responses: { '200': ok('Deleted.', ref('WriteResult')), ...errors('400', '401', '403', '404', '412', '429', '500', '503') },
        }),
      },
    },
  },
  {
    path: '/startups',
    cors: 'public',
    rate: 'read',
    methods: {
      GET: {
        handler: getStartups,
        access: 'public',
        doc: (examples) => ({
          operationId: 'listStartups',
          tags: ['startups'],
          summary: 'Filter startups listed for sale',
          description:
            'Every filter combines with AND; revenue bounds are inclusive and a listing without a revenue figure never satisfies one. Order: featured, for sale, newest, name (with `search`: relevance first).',
          parameters: parameters(STARTUP_LIST_PARAMS),
          responses: {
            '200': ok('Matching listings.', ref('StartupList'), { headers: cached, examples: examples.startups }),
            '304': notModified(headerRefs(['ETag', 'Server-Timing'])),
            ...errors('400', '405', '429', '500'),
          },
        }),
      },
    },
  },
  {
    path: '/categories',
    cors: 'public',
    rate: 'read',
    methods: {
      GET: {
        handler: getCategories,
        access: 'public',
        doc: () => ({
          operationId: 'listCategories',
          tags: ['deals'],
          summary: 'List the categories of deals and of startups',
          description: 'The values `category` takes in this catalog (content/categories.yaml): deal categories with their scope (`deals` or `programs`), and startup categories.',
          responses: {
            '200': ok(
              'The categories.',
              {
                type: 'object',
                required: ['success', 'deals', 'startups'],
                properties: { success: { const: true }, deals: { type: 'array', items: component(DealCategorySchema) }, startups: { type: 'array', items: component(StartupCategorySchema) } },
              },
              { headers: cached },
            ),
            '304': notModified(headerRefs(['ETag', 'Server-Timing'])),
            ...errors('429', '500'),
          },
        }),
      },
    },
  },
  {
    path: '/changes',
    cors: 'public',
    rate: 'read',
    follows: 'history',
    methods: {
      GET: {
        handler: getChanges,
        access: 'public',
        doc: () => ({
          operationId: 'listChanges',
          tags: ['deals', 'startups'],
          summary: 'What changed: deals and startups added, updated, expired and removed',
          description: `The changes to public deals and startups, newest first, read from the git history of the content up to the commit served (\`head\`), so edits made by hand in git appear as well as the admin's: \`added\` (new, or a draft published), \`updated\` with the names of the fields that changed (a rename: \`slug\`, and \`previousSlug\`), \`expired\` (an update setting \`status\` to \`expired\`), \`removed\` (deleted, or made a draft). Drafts never appear. Merges count as one change on the branch, dated when they were made on it. Poll with \`since=<head of the last answer>\`; page with \`cursor=<next>\` until no \`next\` comes (a page reads at most ${PAGE_COMMITS} commits, so one may hold fewer changes than \`limit\`). The feed reaches back ${CHANGES_REACH} commits (\`complete\` says when older changes may be missing). The same changes as an Atom feed: /changes.atom. 503 where the instance has no git history.`,
          parameters: parameters(CHANGES_PARAMS),
          responses: {
            '200': ok('One page of changes, newest first.', ref('Changes'), { headers: cached }),
            '304': notModified(headerRefs(['ETag', 'Server-Timing'])),
            ...errors('400', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/submit-deal',
    cors: 'public',
    rate: 'submit',
    methods: {
      POST: {
        handler: postSubmitDeal,
        access: 'public',
        doc: (examples) => ({
          operationId: 'submitDeal',
          tags: ['submissions'],
          summary: 'Submit a deal for editorial review',
          description:
            'Anyone may submit; 5 are accepted per address per rolling hour (refused ones do not count). 201 once the submission is stored durably in the private submission store (no git commit); the same company and link within a day answers the earlier id with `duplicate: true`. The `RateLimit` fields of a 201 or 429 report the hourly submission limit. A refused submission is a 400 whose `error` names the first problem; with `errors=all` its `fields` lists every problem, one per field. Sent from a signed-in browser on this site (its session cookie, same origin), a new submission is also linked to the member, whose dashboard shows its review; the answer is the same.',
          parameters: [ERRORS_ALL('the submission')],
          requestBody: { required: true, content: jsonOrForm(ref('DealSubmission'), examples.submitDeal) },
          responses: {
            '201': ok('Accepted for review.', ref('SubmissionAccepted'), { examples: { accepted: { summary: 'Accepted', value: { success: true, id: 'sub-4f3c2b1a09e8d7c6' } } } }),
            '303': answer(
              'A plain HTML form post (a form encoding with `Accept: text/html`): redirect to the thanks page, or back to the form with an `error` code (`required`, `too_short`, `too_long`, `not_allowed`, `invalid_url`, `invalid_email`, `invalid`, `too_many`, `too_large`) and the `field` it names, never text.',
              { headers: { Location: LOCATION } },
            ),
            ...errors('400', '405', '413', '415', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/auth/login',
    cors: 'same-origin',
    rate: 'auth',
    methods: {
      POST: {
        handler: postLogin,
        access: 'public',
        doc: () => ({
          operationId: 'signIn',
          tags: ['auth'],
          summary: 'Sign in with a local account',
          description:
            'Sets the session cookie. Same-origin only (`Origin`). Failed attempts are limited per address and e-mail (429 with `Retry-After`). A form post gets a 303 redirect instead of JSON. 503 where that limit cannot be shared by every instance (a serverless deployment without Redis).',
          requestBody: {
            required: true,
            content: jsonOrForm(ref('SignIn'), { signIn: { summary: 'E-mail and password', value: { email: 'editor@example.com', password: 'correct horse battery staple' } } }),
          },
          responses: {
            '200': ok('Signed in.', ref('SessionAnswer'), { headers: { 'Set-Cookie': SET_COOKIE } }),
            '303': answer('Form post, signed in: to `next`, else the admin pages (an admin) or the member dashboard (/account/); or back to /login with an `error` reason.', {
              headers: { Location: LOCATION, 'Set-Cookie': SET_COOKIE },
            }),
            ...errors('400', '401', '403', '413', '415', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/auth/logout',
    cors: 'same-origin',
    rate: 'auth',
    methods: {
      POST: {
        handler: postLogout,
        access: 'optional',
        doc: () => ({
          operationId: 'signOut',
          tags: ['auth'],
          summary: 'Sign out',
          description:
            'The session sent is revoked until it would have expired (a copied cookie stops working too); `everywhere` ends every session of the account. Without a session it only clears the cookie. Same-origin only (`Origin`). A form post gets a 303 redirect. `everywhere` is 503 where the accounts are read-only (a serverless deployment); the session sent is revoked all the same.',
          requestBody: {
            required: false,
            content: jsonOrForm(ref('SignOut'), { everywhere: { summary: 'End every session of this account', value: { everywhere: true } } }),
          },
          responses: {
            '200': ok('Signed out.', ref('SignedOut'), { headers: { 'Set-Cookie': SET_COOKIE } }),
            '303': answer('Form post: to /login.', { headers: { Location: LOCATION, 'Set-Cookie': SET_COOKIE } }),
            ...errors('403', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/auth/signup',
    cors: 'same-origin',
    rate: 'auth',
    methods: {
      POST: {
        handler: postSignUp,
        access: 'public',
        doc: () => ({
          operationId: 'signUp',
          tags: ['auth'],
          summary: 'Sign up as a member',
          description:
            'For people in a browser (same-origin only; no agent credential flow exists): makes a member account and mails a link that confirms the address (good for 48 hours); the account signs in once confirmed. The answer is the same whether or not the address has an account already (its owner is told by mail). At most 10 requests that send mail per address and hour (429). A form post gets a 303 redirect to /signup. 503 where accounts cannot be written or mail cannot be sent (a serverless deployment without DATABASE_URL or SMTP_URL).',
          requestBody: {
            required: true,
            content: jsonOrForm(ref('SignUp'), { signUp: { summary: 'E-mail and password', value: { email: 'founder@example.com', password: 'correct horse battery staple' } } }),
          },
          responses: {
            '202': ok('The confirmation mail is on its way.', ref('AccountMessage')),
            '303': answer('Form post: back to /signup, saying the mail was sent or which field to fix.', { headers: { Location: LOCATION } }),
            ...errors('400', '403', '413', '415', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/auth/verify',
    cors: 'same-origin',
    rate: 'auth',
    methods: {
      POST: {
        handler: postVerify,
        access: 'public',
        doc: () => ({
          operationId: 'confirmEmail',
          tags: ['auth'],
          summary: 'Confirm an e-mail address',
          description:
            'The button of /confirm-email, the page the sign-up mail links to (a POST, so a mail scanner that opens every link confirms nothing). Works only while the link is the newest for the address (48 hours). Same-origin only. A form post gets a 303 redirect to /login, which says whether it worked.',
          requestBody: {
            required: true,
            content: jsonOrForm(ref('EmailConfirmation'), { confirm: { summary: 'The token of the link', value: { token: '<from the link>' } } }),
          },
          responses: {
            '200': ok('Confirmed.', ref('AccountMessage')),
            '303': answer('Form post: to /login?verified=1, or /login?error=link_expired.', { headers: { Location: LOCATION } }),
            ...errors('400', '403', '413', '415', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/auth/password-reset-request',
    cors: 'same-origin',
    rate: 'auth',
    methods: {
      POST: {
        handler: postPasswordResetRequest,
        access: 'public',
        doc: () => ({
          operationId: 'requestPasswordReset',
          tags: ['auth'],
          summary: 'Mail a link to choose a new password',
          description:
            'Sends the link (good for one hour and one use) when the address has an account; the answer is the same either way. Same-origin; at most 10 requests that send mail per address and hour.',
          requestBody: {
            required: true,
            content: jsonOrForm(ref('PasswordResetRequest'), { reset: { summary: 'The address', value: { email: 'founder@example.com' } } }),
          },
          responses: {
            '202': ok('Said what happens next.', ref('AccountMessage')),
            '303': answer('Form post: back to /forgot-password.', { headers: { Location: LOCATION } }),
            ...errors('400', '403', '413', '415', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/auth/password-reset',
    cors: 'same-origin',
    rate: 'auth',
    methods: {
      POST: {
        handler: postPasswordReset,
        access: 'public',
        doc: () => ({
          operationId: 'resetPassword',
          tags: ['auth'],
          summary: 'Choose a new password with a mailed link',
          description: 'Sets the password and ends every session and every other link of the account (it also confirms the address). Same-origin only.',
          requestBody: {
            required: true,
            content: jsonOrForm(ref('PasswordReset'), { reset: { summary: 'Token and new password', value: { token: '<from the link>', password: 'a new long password' } } }),
          },
          responses: {
            '200': ok('Changed.', ref('AccountMessage')),
            '303': answer('Form post: to /login?reset=1, or back with an `error` reason.', { headers: { Location: LOCATION } }),
            ...errors('400', '403', '413', '415', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/auth/magic-link',
    cors: 'same-origin',
    rate: 'auth',
    methods: {
      POST: {
        handler: postSignInLinkRequest,
        access: 'public',
        doc: () => ({
          operationId: 'requestSignInLink',
          tags: ['auth'],
          summary: 'Mail a link to sign in',
          description:
            "For people in a browser (same-origin only; no agent credential flow exists): mails a member's address a link to sign in, good for 15 minutes and one use; its page has one button that signs in (a POST, so a mail scanner that opens links signs nobody in) and goes on to `next`. An address without an account is mailed a note with a link to sign up; an editor's gets nothing (editors sign in with their password or the provider). The answer is the same either way. Counts against the limits of requests that send mail (10 per address and hour, shared with sign-up and reset requests: 429). A form post gets a 303 redirect to /login.",
          requestBody: {
            required: true,
            content: jsonOrForm(ref('SignInLinkRequest'), { link: { summary: 'The address, and the page to come back to', value: { email: 'founder@example.com', next: '/deals/' } } }),
          },
          responses: {
            '202': ok('Said what happens next.', ref('AccountMessage')),
            '303': answer('Form post: to /login?link-sent=1 (keeping `next`), or back with an `error` reason (`link_email`, `link_throttled`).', { headers: { Location: LOCATION } }),
            ...errors('400', '403', '413', '415', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/auth/magic-link/sign-in',
    cors: 'same-origin',
    rate: 'auth',
    methods: {
      POST: {
        handler: postSignInWithLink,
        access: 'public',
        doc: () => ({
          operationId: 'signInWithLink',
          tags: ['auth'],
          summary: 'Sign in with a mailed link',
          description:
            'The button of /sign-in-link, the page the sign-in mail links to. Sets the session cookie once per link (two requests at once: one signs in, the other is refused), within 15 minutes, while the account has not changed its password since; it also confirms the address (an unconfirmed account loses the password chosen at sign-up). Same-origin only.',
          requestBody: {
            required: true,
            content: jsonOrForm(ref('SignInLink'), { link: { summary: 'The token of the link', value: { token: '<from the link>' } } }),
          },
          responses: {
            '200': ok('Signed in.', ref('SessionAnswer'), { headers: { 'Set-Cookie': SET_COOKIE } }),
            '303': answer("Form post: to the link's `next`, else the member dashboard (/account/), with the session cookie; or to /login?error=signin_link_expired.", {
              headers: { Location: LOCATION, 'Set-Cookie': SET_COOKIE },
            }),
            ...errors('400', '403', '413', '415', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/auth/oidc',
    cors: 'same-origin',
    rate: 'auth',
    methods: {
      GET: {
        handler: getOidcStart,
        access: 'public',
        doc: () => ({
          operationId: 'signInWithProvider',
          tags: ['auth'],
          summary: 'Sign in through the OpenID Connect provider',
          description:
            'Browser sign-in and sign-up, when a provider is configured (404 otherwise): redirects to it (authorization code flow with PKCE). A verified e-mail address without an account here becomes a member account.',
          parameters: [
            {
              name: 'next',
              in: 'query',
              description: 'The page of this site to go to once signed in (a path starting with one `/`; anything else is ignored).',
              schema: { type: 'string', maxLength: 512 },
            },
          ],
          responses: {
            '303': answer('To the provider, or to /login with an `error` reason.', { headers: { Location: LOCATION, 'Set-Cookie': plainHeader('The short-lived sign-in flow cookie.') } }),
            ...errors('404', '429', '500'),
          },
        }),
      },
    },
  },
  {
    path: '/auth/oidc/callback',
    cors: 'same-origin',
    rate: 'auth',
    methods: {
      GET: {
        handler: getOidcCallback,
        access: 'public',
        doc: () => ({
          operationId: 'providerCallback',
          tags: ['auth'],
          summary: 'Return from the OpenID Connect provider',
          description:
            'Where the provider sends the browser back; sets the session cookie for a verified e-mail address: its account, or a new member account (no password, the address confirmed). An address the provider has not verified is refused.',
          parameters: [
            { name: 'code', in: 'query', description: 'The authorization code the provider issued.', schema: { type: 'string' } },
            { name: 'state', in: 'query', description: 'The state this site sent the provider.', schema: { type: 'string' } },
            { name: 'error', in: 'query', description: 'Set by the provider when the person cancelled or it refused.', schema: { type: 'string' } },
          ],
          responses: {
            '303': answer('To `next`, else /admin/ (an admin) or /account/ (a member), with the session cookie; or to /login with an `error` reason.', {
              headers: { Location: LOCATION, 'Set-Cookie': SET_COOKIE },
            }),
            ...errors('404', '429', '500'),
          },
        }),
      },
    },
  },
  {
    path: '/auth/session',
    cors: 'same-origin',
    rate: 'auth',
    methods: {
      GET: {
        handler: getSession,
        access: 'admin',
        doc: () => ({
          operationId: 'currentSession',
          tags: ['auth'],
          summary: 'Who is signed in',
          description: 'The account of the session cookie sent (admin or member) and when the session expires.',
          responses: { '200': ok('The session.', ref('SessionAnswer'), { headers: etag }), '304': notModified(), ...errors('401', '429', '500') },
        }),
      },
    },
  },
  // --- the member area (issue 18, item 3): people in a browser, same-origin session cookie ---
  {
    path: '/me/saved',
    cors: 'same-origin',
    rate: 'write',
    methods: {
      GET: {
        handler: getSaved,
        access: 'member',
        doc: () => ({
          operationId: 'listSaved',
          tags: ['members'],
          summary: "The signed-in member's saved deals and startups",
          description:
            'Newest first, each as the catalog serves it now (found by record id, so a renamed record keeps its place): `state` is `live`, `expired` (a deal whose status is `expired` or whose expiry date has passed) or `removed` (no longer in the catalog; named by its title as of saving). `ids` lists the saved ids by kind. 402 when paid plans are on, PLAN_REQUIRED_FOR names `saved` and the account is not on the plan (admins always pass). For people in a browser only (the same-origin session cookie; no credential exists for agents). `Cache-Control: private, no-store`.',
          responses: {
            '200': ok('The saved items.', ref('SavedItems'), { headers: { ...etag, 'Cache-Control': CACHE_CONTROL } }),
            '304': notModified(),
            ...errors('401', '402', '429', '500', '503'),
          },
        }),
      },
      POST: {
        handler: postSaved,
        access: 'member',
        doc: () => ({
          operationId: 'saveItem',
          tags: ['members'],
          summary: 'Save a deal or startup, or remove it (`action=remove`)',
          description: `Saves the record by its \`id\` (idempotent: saving it again changes nothing); \`action: remove\` takes it off the list (what an HTML form sends, since a form cannot DELETE). An id the catalog does not serve is 404. An account keeps at most ${MAX_SAVED_ITEMS} items (400 \`conflict\` beyond). Saving (not removing) is 402 when it needs a plan the account is not on. Same-origin only (\`Origin\`). A form post gets a 303: back to its \`next\` page (a path of this site; anything else is ignored for /account/saved/) with \`saved=1\` or \`removed=1\`, or to /login?next= without a session.`,
          requestBody: {
            required: true,
            content: jsonOrForm(ref('SavedItemRequest'), {
              save: { summary: 'Save a deal', value: { kind: 'deal', id: 'deal-0001' } },
              remove: { summary: 'Remove it', value: { kind: 'deal', id: 'deal-0001', action: 'remove' } },
            }),
          },
          responses: {
            '200': ok('Saved or removed.', ref('SavedChange'), { headers: { 'Cache-Control': CACHE_CONTROL } }),
            '303': answer('Form post: back to `next` (or /account/saved/), or to /login?next= without a session, or to /account/billing/?needed=saved when saving needs a plan.', {
              headers: { Location: LOCATION },
            }),
            ...errors('400', '401', '402', '403', '404', '413', '415', '429', '500', '503'),
          },
        }),
      },
      DELETE: {
        handler: deleteSaved,
        access: 'member',
        doc: () => ({
          operationId: 'removeSavedItem',
          tags: ['members'],
          summary: 'Remove a saved item',
          description: 'Idempotent: removing an item that is not saved (or a record removed from the catalog) answers 200 all the same. Same-origin only (`Origin`).',
          parameters: [
            { name: 'kind', in: 'query', required: true, description: 'What the item is.', schema: { type: 'string', enum: ['deal', 'startup'] } },
            { name: 'id', in: 'query', required: true, description: "The record's id.", schema: { type: 'string', minLength: 1 } },
          ],
          responses: { '200': ok('Removed.', ref('SavedChange'), { headers: { 'Cache-Control': CACHE_CONTROL } }), ...errors('400', '401', '403', '429', '500', '503') },
        }),
      },
    },
  },
  // --- paid plans (issue 18, item 6; docs/billing.md): off unless STRIPE_* are set ---
  {
    path: '/me/billing',
    cors: 'same-origin',
    rate: 'write',
    methods: {
      GET: {
        handler: getBilling,
        access: 'member',
        doc: () => ({
          operationId: 'getBilling',
          tags: ['billing'],
          summary: "The signed-in member's plan",
          description: `Whether paid plans are on (\`enabled\`), which member features need one (\`requiredFor\`, some of ${PLAN_FEATURES.map((f) => `\`${f}\``).join(', ')}), and the account's plan as Stripe's webhook last reported it: \`status\`, when the trial ends, when it renews or ends. \`unlocked\`: the account may use those features (on the plan, an admin, or paid plans off). For people in a browser only. \`Cache-Control: private, no-store\`.`,
          responses: { '200': ok('The plan.', ref('BillingState'), { headers: { ...etag, 'Cache-Control': CACHE_CONTROL } }), '304': notModified(), ...errors('401', '429', '500', '503') },
        }),
      },
    },
  },
  {
    path: '/me/billing/checkout',
    cors: 'same-origin',
    rate: 'write',
    methods: {
      POST: {
        handler: postCheckout,
        access: 'member',
        doc: () => ({
          operationId: 'startCheckout',
          tags: ['billing'],
          summary: 'Start the plan on Stripe Checkout',
          description: `A Checkout session in subscription mode for the plan's price, with a ${TRIAL_DAYS}-day trial the first time an account subscribes; Stripe's page comes back to /account/billing/. The plan starts when Stripe's signed webhook says so, not on the way back. 400 \`conflict\` while the account is on the plan; 404 while paid plans are off; 503 when Stripe cannot be reached. Same-origin only (\`Origin\`). A form post gets a 303 to Stripe's page (or to /login without a session).`,
          requestBody: { required: false, content: jsonOrForm(ref('BillingRequest')) },
          responses: {
            '200': ok("Stripe's Checkout page.", ref('BillingRedirect'), { headers: { 'Cache-Control': CACHE_CONTROL } }),
            '303': answer("Form post: to Stripe's Checkout page; to /account/billing/?error=on_plan while on the plan; to /login?next= without a session.", { headers: { Location: LOCATION } }),
            ...errors('400', '401', '403', '404', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/me/billing/portal',
    cors: 'same-origin',
    rate: 'write',
    methods: {
      POST: {
        handler: postPortal,
        access: 'member',
        doc: () => ({
          operationId: 'openBillingPortal',
          tags: ['billing'],
          summary: "Open Stripe's customer portal",
          description:
            'Where a member changes the card, reads invoices or cancels; it comes back to /account/billing/. 404 for an account that never started a plan, and while paid plans are off; 503 when Stripe cannot be reached. Same-origin only (`Origin`). A form post gets a 303 to the portal (or to /login without a session).',
          requestBody: { required: false, content: jsonOrForm(ref('BillingRequest')) },
          responses: {
            '200': ok("Stripe's customer portal.", ref('BillingRedirect'), { headers: { 'Cache-Control': CACHE_CONTROL } }),
            '303': answer('Form post: to the portal; to /account/billing/?error=no_customer before any plan; to /login?next= without a session.', { headers: { Location: LOCATION } }),
            ...errors('401', '403', '404', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/billing/webhook',
    cors: 'same-origin',
    rate: 'write',
    methods: {
      POST: {
        handler: postBillingWebhook,
        access: 'public',
        doc: () => ({
          operationId: 'stripeWebhook',
          tags: ['billing'],
          summary: "Stripe's events about members' plans",
          description: `Called by Stripe only (404 while paid plans are off). The \`Stripe-Signature\` header must hold for the raw body and STRIPE_WEBHOOK_SECRET and be at most ${SIGNATURE_TOLERANCE_SECONDS} seconds old: a missing, wrong or stale signature is 400. Acts on \`checkout.session.completed\` (links the account named by \`client_reference_id\` to its Stripe customer) and \`customer.subscription.created\`, \`.updated\` and \`.deleted\` (the plan's state; an event older than the state stored changes nothing). Every other type is answered 200 and ignored; an event id processed before is answered 200 and not applied again.`,
          parameters: [
            {
              name: 'Stripe-Signature',
              in: 'header',
              required: true,
              description: '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, as Stripe signs each delivery.',
              schema: { type: 'string' },
            },
          ],
          requestBody: { required: true, content: json({ type: 'object', description: 'A Stripe event (`id`, `type`, `created`, `data.object`), read as the raw bytes signed.' }) },
          responses: {
            '200': ok('Received: applied, a duplicate, superseded or ignored.', ref('BillingWebhookAnswer'), { headers: { 'Cache-Control': CACHE_CONTROL } }),
            ...errors('400', '404', '413', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/me/export',
    cors: 'same-origin',
    rate: 'write',
    methods: {
      GET: {
        handler: getExport,
        access: 'member',
        doc: () => ({
          operationId: 'exportMyData',
          tags: ['members'],
          summary: 'Download everything stored about the signed-in member',
          description:
            "Every section of the member's data (the account without its password hash or session generation, saved items, mail written to the outbox where no mail server is set) as one JSON document, versioned by `format`, sent as a download (`Content-Disposition: attachment`, a dated file name). For people in a browser only (the same-origin session cookie; no credential exists for agents); a download another site starts (`Sec-Fetch-Site: cross-site` or `same-site`) is 403. `Cache-Control: private, no-store`.",
          responses: {
            '200': ok("The member's data.", ref('MemberExport'), {
              headers: { 'Content-Disposition': plainHeader('`attachment; filename="<site>-my-data-<YYYY-MM-DD>.json"`.'), 'Cache-Control': CACHE_CONTROL },
            }),
            ...errors('401', '403', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/me/delete',
    cors: 'same-origin',
    rate: 'auth',
    methods: {
      POST: {
        handler: postDelete,
        access: 'member',
        doc: () => ({
          operationId: 'deleteMyAccount',
          tags: ['members'],
          summary: "Delete the signed-in member's account and everything stored about it",
          description:
            "Confirmed by the current `password` (an account without one, which signs in through the identity provider, types its `email` instead): a wrong password is 403 and counts as a failed sign-in (the sign-in throttle: 429 with `Retry-After` when it is full). Then the account and every section of its data (the export's) are removed in one transaction, every session of the account ends and the cookies are cleared. The site's last admin account is refused (400 `conflict`: the site would have no editor). Same-origin only (`Origin`). A form post gets a 303: to /account/deleted/, or back to /account/privacy/ with an `error` reason (`missing`, `password`, `email`, `throttled`, `only-admin`, `invalid`), or to /login?next= without a session. 503 where the accounts are read-only (a serverless deployment).",
          requestBody: {
            required: true,
            content: jsonOrForm(ref('AccountDeletion'), {
              password: { summary: 'An account with a password', value: { password: 'the current password' } },
              email: { summary: 'An account that signs in through the identity provider', value: { email: 'mel@example.com' } },
            }),
          },
          responses: {
            '200': ok('Deleted; signed out.', ref('AccountMessage'), { headers: { 'Set-Cookie': SET_COOKIE } }),
            '303': answer('Form post: to /account/deleted/ (deleted, cookies cleared), back to /account/privacy/?error=…, or to /login?next= without a session.', {
              headers: { Location: LOCATION, 'Set-Cookie': SET_COOKIE },
            }),
            ...errors('400', '401', '403', '413', '415', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/me/dashboard',
    cors: 'same-origin',
    rate: 'write',
    methods: {
      GET: {
        handler: getDashboard,
        access: 'member',
        doc: () => ({
          operationId: 'getDashboard',
          tags: ['members'],
          summary: "The signed-in member's dashboard",
          description:
            "Saved items with what changed since the member last marked them as seen (`changes`: value, status, expiry date, title, removal; changed items first), open deals whose last day or next deadline is within the site's \"expiring soon\" days, and deals the member may qualify for, ranked by the catalog's facts against the member's profile (stages, regions, a funding cap stated in dollars, what the startup builds matched as search matches), each with its `reasons`. For people in a browser only. `Cache-Control: private, no-store`.",
          responses: { '200': ok('The dashboard.', ref('Dashboard'), { headers: { ...etag, 'Cache-Control': CACHE_CONTROL } }), '304': notModified(), ...errors('401', '429', '500', '503') },
        }),
      },
    },
  },
  {
    path: '/me/profile',
    cors: 'same-origin',
    rate: 'write',
    methods: {
      GET: {
        handler: getProfile,
        access: 'member',
        doc: () => ({
          operationId: 'getProfile',
          tags: ['members'],
          summary: "The signed-in member's profile and alert setting",
          description:
            'The facts the dashboard matches deals against (stage, region, funding raised, what the startup builds) and whether alert digests are mailed. For people in a browser only. `Cache-Control: private, no-store`.',
          responses: { '200': ok('The profile.', ref('ProfileAnswer'), { headers: { ...etag, 'Cache-Control': CACHE_CONTROL } }), '304': notModified(), ...errors('401', '429', '500', '503') },
        }),
      },
      POST: {
        handler: postProfile,
        access: 'member',
        doc: () => ({
          operationId: 'setProfile',
          tags: ['members'],
          summary: 'Replace the profile and alert setting',
          description:
            'The whole profile: a fact left out is cleared (and matches every deal); `alerts` left out is off, as an unchecked box is. Same-origin only (`Origin`). A form post gets a 303 back to `next` (or /account/) with `profile=1`, or to /login?next= without a session.',
          requestBody: {
            required: true,
            content: jsonOrForm(ref('MemberProfileRequest'), {
              profile: { summary: 'A seed-stage French AI startup, alerts on', value: { stage: 'seed', region: 'fr', fundingUsd: 500000, builds: 'AI developer tools', alerts: true } },
            }),
          },
          responses: {
            '200': ok('Saved.', ref('ProfileAnswer'), { headers: { 'Cache-Control': CACHE_CONTROL } }),
            '303': answer('Form post: back to `next` (or /account/), or to /login?next= without a session.', { headers: { Location: LOCATION } }),
            ...errors('400', '401', '403', '413', '415', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/me/saved/seen',
    cors: 'same-origin',
    rate: 'write',
    methods: {
      POST: {
        handler: postSeen,
        access: 'member',
        doc: () => ({
          operationId: 'markSavedSeen',
          tags: ['members'],
          summary: 'Mark saved items as seen',
          description:
            'Their changes are no longer flagged on the dashboard until the next one: one item (`kind` and `id`) or every item (neither). Same-origin only (`Origin`). A form post gets a 303 to /account/ with `seen=1`.',
          requestBody: {
            required: true,
            content: jsonOrForm(ref('SeenRequest'), {
              one: { summary: 'One item', value: { kind: 'deal', id: 'deal-0001' } },
              all: { summary: 'Every item', value: {} },
            }),
          },
          responses: {
            '200': ok('Marked.', ref('SeenAnswer'), { headers: { 'Cache-Control': CACHE_CONTROL } }),
            '303': answer('Form post: to /account/, or to /login?next= without a session.', { headers: { Location: LOCATION } }),
            ...errors('400', '401', '403', '413', '415', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/alerts/unsubscribe',
    cors: 'same-origin',
    rate: 'write',
    methods: {
      POST: {
        handler: postUnsubscribe,
        access: 'public',
        doc: () => ({
          operationId: 'unsubscribeAlerts',
          tags: ['members'],
          summary: "Turn a member's alert digests off (one-click unsubscribe)",
          description:
            "The address in every digest's `List-Unsubscribe` header (RFC 8058: a mail client POSTs `List-Unsubscribe=One-Click` to it), and the button of /account/unsubscribe. No session: the signed `token` (in the query or the form) names the account; it works for a year. The one-click POST gets 200; the page's own form (without `List-Unsubscribe=One-Click`) gets a 303 to /account/unsubscribe with `sent=1` (or `error=link`).",
          parameters: [{ name: 'token', in: 'query', required: false, description: 'The signed link of the digest (or send it as the form field `token`).', schema: { type: 'string' } }],
          requestBody: {
            required: false,
            content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { 'List-Unsubscribe': { type: 'string', enum: ['One-Click'] }, token: { type: 'string' } } } } },
          },
          responses: {
            '200': ok('Alerts are off.', ref('AccountMessage'), { headers: { 'Cache-Control': CACHE_CONTROL } }),
            '303': answer('Form post: to /account/unsubscribe, saying whether it worked.', { headers: { Location: LOCATION } }),
            ...errors('400', '413', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/admin/alerts',
    cors: 'same-origin',
    rate: 'write',
    methods: {
      POST: {
        handler: postAlertRound,
        access: 'admin',
        doc: () => ({
          operationId: 'runAlertRound',
          tags: ['admin', 'members'],
          summary: "Send members' alert digests now",
          description:
            'A digest round for every member with alerts on, now, whenever their last one was (the server itself takes each member every ALERT_DIGEST_HOURS, checked hourly; on Netlify a scheduled function does; another serverless host can call this from a scheduler). A member gets one mail when a saved item changed since the last digest or a saved deal ends within 7 days; nothing new, no mail. Same-origin only.',
          responses: { '200': ok('What the round did.', ref('AlertRound'), { headers: { 'Cache-Control': CACHE_CONTROL } }), ...errors('401', '403', '429', '500', '503') },
        }),
      },
    },
  },
  {
    path: '/admin/submissions',
    cors: 'same-origin',
    rate: 'write',
    methods: {
      GET: {
        handler: getSubmissions,
        access: 'admin',
        doc: () => ({
          operationId: 'listSubmissions',
          tags: ['admin', 'submissions'],
          summary: 'List the review queue',
          description: 'Submissions from the private submission store, newest first, a page at a time; reviewed ones come from its archive. `total` counts every match.',
          parameters: [
            { name: 'status', in: 'query', description: 'Which submissions.', schema: { type: 'string', enum: ['pending', 'approved', 'rejected', 'all'], default: 'pending' } },
            { name: 'id', in: 'query', description: 'One submission: the page holds it when it has the `status` asked for, else nothing.', schema: { type: 'string', pattern: SUBMISSION_ID.source } },
            ...pageParameters(SUBMISSION_PAGE),
          ],
          responses: {
            '200': ok('One page of submissions.', ref('SubmissionPage'), { headers: etag }),
            '304': notModified(),
            ...errors('400', '401', '403', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/admin/submissions/approve',
    cors: 'same-origin',
    rate: 'write',
    methods: {
      POST: {
        handler: approveSubmission,
        access: 'admin',
        doc: (examples) => ({
          operationId: 'approveSubmission',
          tags: ['admin', 'submissions'],
          summary: 'Approve a submission: publish it as a deal',
          description:
            "Publishes a pending submission as a deal (one commit of the deal file, authored by the admin) and marks it approved. `status`, `category`, `title` and `slug` default to `active`, the category matching the submission's, the company and what it offers, and a slug of the company name unique in the catalog; an empty string counts as not given. With `deal` (the fields of POST /deals), that deal is published exactly as edited instead.",
          requestBody: { required: true, content: json(ref('Approval'), examples.approve) },
          responses: {
            '200': ok('Approved.', ref('Approved')),
            ...errors('400', '401', '403', '404', '413', '415', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/admin/submissions/reject',
    cors: 'same-origin',
    rate: 'write',
    methods: {
      POST: {
        handler: rejectSubmission,
        access: 'admin',
        doc: () => ({
          operationId: 'rejectSubmission',
          tags: ['admin', 'submissions'],
          summary: 'Reject a submission with a reason',
          description: 'Records the rejection and its reason in the private submission store only (nothing reaches the content history).',
          requestBody: {
            required: true,
            content: json(ref('Rejection'), { reject: { summary: 'Rejected with a reason', value: { id: 'sub-4f3c2b1a09e8d7c6', reason: 'The offer is only open to existing customers.' } } }),
          },
          responses: {
            '200': ok('Rejected.', ref('Rejected')),
            ...errors('400', '401', '403', '404', '413', '415', '429', '500', '503'),
          },
        }),
      },
    },
  },
  // --- drafts and previews (issue 16, item 2) ---
  {
    path: '/admin/drafts',
    cors: 'same-origin',
    rate: 'write',
    methods: {
      GET: {
        handler: getDrafts,
        access: 'admin',
        doc: (examples) => ({
          operationId: 'listDrafts',
          tags: ['admin', 'deals'],
          summary: 'List drafts, or read one draft deal',
          description:
            'Deals and startups saved with `draft: true`: in no public output (API, pages, sitemap, llms files, MCP, search) until published. Save a deal as a draft with `draft: true` on POST or PUT /deals (a startup: /admin/startups); publish it with PUT and `draft: false` (or `null`), one commit. With `slug`, one draft deal and its ETag (for `If-Match` on PUT; a draft startup: GET /admin/startups?slug=). Never cached.',
          parameters: [{ name: 'slug', in: 'query', required: false, description: "A draft deal's slug: answer that deal alone.", schema: { type: 'string' }, example: examples.dealSlug }],
          responses: {
            '200': ok(
              'The drafts, or one draft deal (with `slug`).',
              {
                oneOf: [
                  ref('DealAnswer'),
                  {
                    type: 'object',
                    required: ['success', 'deals', 'startups'],
                    properties: { success: { const: true }, deals: { type: 'array', items: ref('Deal') }, startups: { type: 'array', items: ref('Startup') } },
                  },
                ],
              },
              { headers: { ...etag, 'Cache-Control': CACHE_CONTROL } },
            ),
            ...errors('401', '403', '404', '429', '500'),
          },
        }),
      },
    },
  },
  {
    path: '/admin/preview',
    cors: 'same-origin',
    rate: 'write',
    methods: {
      GET: {
        handler: getPreview,
        access: 'admin',
        doc: (examples) => ({
          operationId: 'previewSaved',
          tags: ['admin', 'deals'],
          summary: 'Preview a saved deal or startup page, draft or published',
          description:
            "The page exactly as the site renders it (the live pages' renderer, at the page's own URL), as HTML; `Cache-Control: no-store`, `X-Robots-Tag: noindex, nofollow`. One of `deal` or `startup` is required. 503 when the server has no built site.",
          parameters: [
            { name: 'deal', in: 'query', required: false, description: 'The slug of the deal to preview.', schema: { type: 'string' }, example: examples.dealSlug },
            { name: 'startup', in: 'query', required: false, description: 'The slug of the startup to preview.', schema: { type: 'string' } },
          ],
          responses: { '200': preview, ...errors('400', '401', '403', '404', '429', '500', '503') },
        }),
      },
      POST: {
        handler: postPreview,
        access: 'admin',
        doc: (examples) => ({
          operationId: 'previewUnsaved',
          tags: ['admin', 'deals'],
          summary: 'Preview the page of an unsaved deal',
          parameters: [ERRORS_ALL('the deal')],
          description:
            "The deal as the body gives it, checked as saving it would check it (400 naming the field), rendered as the site would render its page; nothing is written. With the `id` of a stored deal (a draft too), the body's fields apply over it as PUT /deals does; otherwise it is a new deal as POST /deals makes it. A form post carries the deal as JSON text in its `deal` field (what the admin form opens in a new tab). Same-origin only (`Origin`).",
          requestBody: {
            required: true,
            content: {
              ...json(ref('DealUpdate'), examples.updateDeal),
              'application/x-www-form-urlencoded': { schema: { type: 'object', required: ['deal'], properties: { deal: { type: 'string', description: 'The deal as JSON text.' } } } },
            },
          },
          responses: { '200': preview, ...errors('400', '401', '403', '413', '415', '429', '500', '503') },
        }),
      },
    },
  },
  ...ADMIN_RECORD_ROUTES,
  {
    path: '/admin/search-gaps',
    cors: 'same-origin',
    rate: 'write',
    methods: {
      GET: {
        handler: getSearchGaps,
        access: 'admin',
        doc: () => ({
          operationId: 'listSearchGaps',
          tags: ['admin'],
          summary: 'Searches that found nothing or little',
          description: 'Normalised search text and counts per period, most frequent first: the searches people could not finish (docs/search-gaps.md).',
          parameters: [
            { name: 'days', in: 'query', description: 'The period in UTC days, today included; above 30 it is capped at 30.', schema: { type: 'integer', minimum: 1, default: 7 } },
            { name: 'limit', in: 'query', description: 'How many queries to list; above 500 it is capped at 500.', schema: { type: 'integer', minimum: 1, default: 50 } },
          ],
          responses: {
            '200': ok("The period's counts and its most frequent queries that found nothing (`zero`) or 1 or 2 deals (`low`).", ref('SearchGapReport'), { headers: etag }),
            '304': notModified(),
            ...errors('400', '401', '403', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/admin/attention',
    cors: 'same-origin',
    rate: 'write',
    methods: {
      GET: {
        handler: getAttention,
        access: 'admin',
        doc: () => ({
          operationId: 'listNeedsAttention',
          tags: ['admin'],
          summary: 'Records that need an editor',
          description:
            "Deals past their expiry date but not marked expired, deals expiring soon, records not checked within the site's age, and links the last `npm run verify-links` found broken (docs/freshness.md). Read only: each fix is an ordinary admin write.",
          responses: { '200': ok('The queues, each a list of records.', ref('AttentionReport')), ...errors('401', '403', '429', '500') },
        }),
      },
    },
  },
  {
    path: '/health',
    cors: 'public',
    rate: 'read',
    methods: {
      GET: {
        handler: getHealth,
        access: 'optional',
        doc: (examples) => ({
          operationId: 'health',
          tags: ['health'],
          summary: 'Liveness and what this instance serves',
          description:
            "Always 200 while the instance answers: `status` is `ok`, or `degraded` with short `problems` codes, never a 5xx of its own. Catalog version and counts for anyone; content commit, store, content sync, remote, Redis and process details only to a client on the server's own machine or an admin session.",
          responses: {
            '200': ok('The instance is alive.', ref('Health'), { headers: etag, examples: examples.health }),
            '304': notModified(),
            ...errors('429', '500'),
          },
        }),
      },
    },
  },
  {
    path: '/hooks/content',
    cors: 'same-origin',
    rate: 'read',
    methods: {
      POST: {
        handler: postContentHook,
        access: 'public',
        doc: () => ({
          operationId: 'contentWebhook',
          tags: ['admin'],
          summary: 'Content repository push webhook: pull now',
          description:
            "Only with CONTENT_REMOTE and CONTENT_WEBHOOK_SECRET (404 otherwise). Signed like GitHub's and Gitea's webhooks: `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the raw body>`. The body itself is not read: the instance fetches the branch it follows.",
          parameters: [
            {
              name: 'X-Hub-Signature-256',
              in: 'header',
              required: true,
              description: '`sha256=` and the hex HMAC-SHA256 of the raw body with the shared secret.',
              schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
            },
          ],
          requestBody: { required: false, content: json({ type: 'object', description: 'The push event (not read).' }) },
          responses: {
            '200': ok('Pulled.', { type: 'object', required: ['success', 'commit', 'changed'], properties: { success: { const: true }, commit: { type: 'string' }, changed: { type: 'boolean' } } }),
            ...errors('401', '404', '413', '429', '500', '503'),
          },
        }),
      },
    },
  },
  {
    path: '/mcp',
    cors: 'public',
    rate: 'mcp',
    unversioned: true,
    methods: {
      POST: {
        handler: handleMcp,
        access: 'public',
        doc: (examples) => ({
          operationId: 'mcp',
          tags: ['agents'],
          summary: 'Model Context Protocol (Streamable HTTP)',
          description:
            'Stateless MCP server with JSON responses: tools `search_deals`, `get_deal`, `search_startups`, `recent_changes`, `get_site_info`, `list_categories`; resources llms.txt, llms-full.txt, sitemap.xml. One JSON-RPC message per POST (no batches), at most 64 KiB. The transport needs `Accept` listing both `application/json` and `text/event-stream` (406 otherwise) and `Content-Type: application/json` (415 otherwise). Only POST: other methods answer 405.',
          parameters: [
            {
              name: 'Accept',
              in: 'header',
              required: true,
              description: 'Must list both `application/json` and `text/event-stream` (Streamable HTTP); answers are `application/json`.',
              schema: { type: 'string', enum: ['application/json, text/event-stream'] },
            },
            {
              name: 'Mcp-Protocol-Version',
              in: 'header',
              required: false,
              description: 'The protocol version agreed in `initialize` (such as `2025-06-18`); an unsupported one answers 400.',
              schema: { type: 'string' },
            },
          ],
          requestBody: { required: true, content: json(ref('JsonRpcRequest'), examples.mcp) },
          responses: {
            '200': answer('The JSON-RPC answer: a `result`, or an `error` (such as -32601 for an unknown method).', { common: MCP_HEADERS, content: json(ref('JsonRpcResponse')) }),
            '202': answer('A notification, accepted (no body).', { common: MCP_HEADERS }),
            '400': answer('Not one valid JSON-RPC message: not JSON (-32700), a batch or nested too deep (-32600), or an unsupported `Mcp-Protocol-Version` (-32000).', {
              common: MCP_HEADERS,
              content: json(ref('JsonRpcError')),
            }),
            '406': answer('`Accept` does not list both `application/json` and `text/event-stream` (-32000).', { common: MCP_HEADERS, content: json(ref('JsonRpcError')) }),
            '413': answer('The body is larger than 64 KiB (-32000).', { common: MCP_HEADERS, content: json(ref('JsonRpcError')) }),
            '415': answer('`Content-Type` is not `application/json` (-32000).', { common: MCP_HEADERS, content: json(ref('JsonRpcError')) }),
            ...errors('429', '500'),
          },
        }),
      },
    },
  },
  {
    path: '/a2a',
    cors: 'public',
    rate: 'a2a',
    unversioned: true,
    methods: {
      POST: {
        handler: handleA2a,
        access: 'public',
        doc: (examples) => ({
          operationId: 'a2a',
          tags: ['agents'],
          summary: 'A2A agent (protocol 1.0, JSON-RPC binding)',
          description:
            'The agent of /.well-known/agent-card.json, on the official A2A SDK. `SendMessage` with a text part searches deals and programs (a text starting with `startups:` searches startups for sale); a data part carries filters named as GET /api/v1/deals or /api/v1/startups name them (`"skill": "search_startups"` for startups; `limit` 1 to 50, default 10). The answer is a message, never a task: a short text and a data part with `total`, `count` and the records in the list shape of the API. No streaming (`SendStreamingMessage` answers -32004), no push notifications, no tasks. Stateless; one JSON-RPC message per POST (no batches), at most 64 KiB. Protocol errors (unknown method -32601, bad params -32602, unsupported version -32009) are JSON-RPC errors with status 200, as the SDK answers them. Only POST: other methods answer 405.',
          parameters: [
            {
              name: 'A2A-Version',
              in: 'header',
              required: true,
              description: 'The A2A protocol version: `1.0`. Absent means 0.3 (A2A 1.0 §3.6.2), which this agent does not speak (-32009).',
              schema: { type: 'string', enum: ['1.0'] },
            },
          ],
          requestBody: { required: true, content: json(ref('JsonRpcRequest'), examples.a2a) },
          responses: {
            '200': answer('The JSON-RPC answer: a `result` (`{ "message": … }` for `SendMessage`), or an `error`.', { common: MCP_HEADERS, content: json(ref('JsonRpcResponse')) }),
            '400': answer('Not one valid JSON-RPC message: not JSON (-32700), a batch or nested too deep (-32600).', { common: MCP_HEADERS, content: json(ref('JsonRpcError')) }),
            '413': answer('The body is larger than 64 KiB (-32000).', { common: MCP_HEADERS, content: json(ref('JsonRpcError')) }),
            '415': answer('`Content-Type` is not `application/json` (-32005).', { common: MCP_HEADERS, content: json(ref('JsonRpcError')) }),
            ...errors('429', '500'),
          },
        }),
      },
    },
  },
];

/** What a document's renderer reads besides the catalog: the route lifecycle (OpenAPI) and the OIDC issuer (discovery documents). */
export type DocumentDeps = Pick<Deps, 'lifecycle' | 'config'>;

/** A document outside `/api` that is a function of the catalog (GET and HEAD; public CORS; no rate limit). */
export interface DocumentRoute {
  path: string;
  type: string;
  render: (catalog: Catalog, deps: DocumentDeps) => string;
  headers?: Record<string, string>;
}

/** A document read from the content's history (the Atom change feed): its handler answers it, kept per commit (see `ApiRoute.follows`). */
export interface HistoryDocumentRoute {
  path: string;
  type: string;
  serve: Handler;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
const pretty = (value: unknown) => JSON.stringify(value, null, 2);
const API_CATALOG_LINK = { Link: `<${paths.apiCatalog}>; rel="api-catalog"` };

export const DOCUMENT_ROUTES: readonly (DocumentRoute | HistoryDocumentRoute)[] = [
  { path: paths.llms, type: TEXT_TYPE, render: (c) => llmsTxt(c) },
  { path: paths.llmsFull, type: TEXT_TYPE, render: (c) => llmsFullTxt(c) },
  { path: paths.sitemap, type: 'application/xml; charset=utf-8', render: (c) => sitemapXml(c) },
  { path: paths.robots, type: TEXT_TYPE, render: (c) => robotsTxt(c) },
  { path: paths.openapi, type: JSON_TYPE, render: (c, deps) => pretty(openApiDocument(c, deps.lifecycle, API_ROUTES)), headers: API_CATALOG_LINK },
  { path: paths.apiCatalog, type: API_CATALOG_TYPE, render: (c) => pretty(apiCatalog(c.site)), headers: API_CATALOG_LINK },
  { path: paths.agentCard, type: JSON_TYPE, render: (c) => pretty(agentCard(c.site)) },
  { path: '/.well-known/oauth-protected-resource', type: JSON_TYPE, render: (c) => pretty(protectedResourceMetadata(c.site)) },
  // RFC 9728 §3: the metadata of resource <origin>/api/v1 is also at the well-known path plus /api/v1.
  { path: `/.well-known/oauth-protected-resource${paths.api}`, type: JSON_TYPE, render: (c) => pretty(protectedResourceMetadata(c.site)) },
  { path: '/.well-known/oauth-authorization-server', type: JSON_TYPE, render: (c, deps) => pretty(authorizationServerMetadata(c.site, deps.config.oidc?.issuer)) },
  { path: '/.well-known/openid-configuration', type: JSON_TYPE, render: (c, deps) => pretty(authorizationServerMetadata(c.site, deps.config.oidc?.issuer)) },
  { path: '/.well-known/jwks.json', type: JSON_TYPE, render: () => pretty(jsonWebKeySet()) },
  { path: paths.changesAtom, type: ATOM_TYPE, serve: getChangesAtom },
];

// --- lookups derived from the rows ---

export const API_VERSION = 'v1';
export const VERSIONED_PREFIX = '/api/v1';

const API_BY_PATH = new Map(API_ROUTES.map((route) => [route.path, route]));
const DOCUMENT_BY_PATH = new Map(DOCUMENT_ROUTES.map((route) => [route.path, route]));

/** What an `/api` request path names: its row (if any), its path below `/api/v1`, and whether it came through the alias. */
export interface ApiTarget {
  route: ApiRoute | undefined;
  path: string;
  alias: boolean;
}

/**
 * @example resolveApi('/api/deals/') // { route: <deals row>, path: '/deals', alias: true }
 */
export function resolveApi(pathname: string): ApiTarget {
  const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  let path: string | undefined;
  let alias = false;
  if (trimmed.startsWith(`${VERSIONED_PREFIX}/`)) path = trimmed.slice(VERSIONED_PREFIX.length);
  else if (trimmed.startsWith('/api/') && !/^\/api\/v\d+(\/|$)/.test(trimmed)) {
    path = trimmed.slice(4);
    alias = true;
  }
  return { route: path === undefined ? undefined : API_BY_PATH.get(path), path: path ?? trimmed, alias };
}

export const documentRoute = (pathname: string): DocumentRoute | HistoryDocumentRoute | undefined => DOCUMENT_BY_PATH.get(pathname);

/** What every document answers, to any origin. */
export const DOCUMENT_METHODS: readonly string[] = ['GET', 'HEAD', 'OPTIONS'];

/** The methods of a row as sent in `Allow`: its own, HEAD with GET, and OPTIONS. */
export function allowedMethods(route: ApiRoute): string[] {
  const methods: string[] = Object.keys(route.methods);
  if (route.methods.GET) methods.splice(1, 0, 'HEAD');
  return [...methods, 'OPTIONS'];
}

/** The methods another origin may use: none on a same-origin route, and never an admin operation. Worked out once per row (the CORS step asks on every request). */
export function crossOriginMethods(route: ApiRoute): readonly string[] {
  let methods = CROSS_ORIGIN_METHODS.get(route);
  if (!methods) {
    methods = route.cors === 'same-origin' ? [] : allowedMethods(route).filter((method) => !['admin', 'member'].includes(route.methods[(method === 'HEAD' ? 'GET' : method) as Method]?.access ?? ''));
    CROSS_ORIGIN_METHODS.set(route, methods);
  }
  return methods;
}

const CROSS_ORIGIN_METHODS = new WeakMap<ApiRoute, readonly string[]>();

/** The public path of a row: `/api/v1/deals`, or `/api/mcp` (`/api/a2a`) for an unversioned one. */
export const publicPath = (route: ApiRoute): string => (route.unversioned ? `/api${route.path}` : `${VERSIONED_PREFIX}${route.path}`);
