/**
 * Everything a handler needs, passed in rather than imported (STYLE 7): wired once per process
 * by an adapter, or per test with a fixture catalog.
 */
import type { Catalog } from '../src/catalog/catalog.ts';
import { listenUrl, type Config } from './config.ts';
import type { RequestContext } from './http/app.ts';
import { createCatalogState, type CatalogState } from './reads/catalog-state.ts';
import { PINNED } from './reads/pinned.ts';
import { PreparedCache } from './reads/prepared-cache.ts';
import { AccountMail } from './auth/account-mail.ts';
import { AccountBook } from './auth/accounts.ts';
import { LoginThrottle } from './auth/login-throttle.ts';
import { MemoryRevocations, RedisRevocations, type Revocations } from './auth/revocations.ts';
import { OidcSignIn } from './auth/oidc.ts';
import { lifecycleTable, type RouteLifecycle } from './http/lifecycle.ts';
import { MemoryRollingLimit, RedisRollingLimit, UnsharedRollingLimit, type RollingLimit } from './http/rolling-limit.ts';
import { RateLimits } from './http/rate-limits.ts';
import type { RedisLink } from './ops/redis.ts';
import { createLogger, type Logger } from './ops/log.ts';
import type { ContentStore } from './store/content-store.ts';
import { ChangeFeed } from './changes/change-feed.ts';
import { SubmissionDesk } from './submissions/desk.ts';
import { openSubmissionStore } from './submissions/open.ts';
import type { SubmissionStore } from './submissions/store.ts';
import { ContentSync } from './store/content-sync.ts';
import { RedisSearchGapStore } from './search-gaps/redis-store.ts';
import { SearchGaps } from './search-gaps/search-gaps.ts';
import { MemorySearchGapStore } from './search-gaps/store.ts';
import { builtSite, type BuiltSite } from './site/live-pages.ts';
import { LiveLogos } from './site/live-logos.ts';
import type { AstroRender } from './site/site.ts';
import { Notifier } from './notify/notifier.ts';
import { StripeGateway } from './billing/stripe-gateway.ts';
import { utcDay } from './utc-day.ts';

export interface Deps {
  config: Config;
  log: Logger;
  clock: () => Date;
  /** What the site's built pages show: the catalog the server started with (its version, deals by slug, listings held weakly). */
  builtSite: BuiltSite;
  /** The catalog being served now; replaced as a whole after a content change. */
  state: () => CatalogState;
  /** Answers, finished responses and live pages, each for the catalog version it was made for. */
  prepared: PreparedCache;
  /** Serve a new catalog from now on (after a content change); its answers start fresh. */
  replaceCatalog: (catalog: Catalog) => void;
  store: ContentStore;
  /** Catalog changes one at a time, and catching up with commits from other instances. */
  content: ContentSync;
  /** What changed in the catalog, read from the content's history (GET /changes, /changes.atom, MCP). */
  changes: ChangeFeed;
  /** Submissions, in the private store (never in the content repository: docs/submissions.md). */
  submissions: SubmissionDesk;
  /** SPEC: 5 accepted submissions per IP per hour. */
  submitLimit: RollingLimit;
  auth: {
    secret: string;
    accounts: AccountBook;
    loginThrottle: LoginThrottle;
    revocations: Revocations;
    oidc: OidcSignIn | undefined;
    /** Confirmation and reset links to people's own addresses (auth/account-mail.ts). */
    mail: AccountMail;
    /** Requests that send such mail (sign-up, reset), per client. */
    mailLimit: RollingLimit;
    /** Such mails per recipient address: many clients together cannot flood one mailbox. */
    recipientLimit: RollingLimit;
  };
  /** Deprecated routes and their dates (checked at start-up). */
  lifecycle: Map<string, RouteLifecycle>;
  /** General per-route limits on every `/api` request. */
  rateLimits: RateLimits;
  redis: RedisLink | undefined;
  /** Searches that found nothing or little, counted for editors (docs/search-gaps.md). */
  searchGaps: SearchGaps;
  /** Notices of submissions and reviews, sent in the background (docs/notifications.md). */
  notify: Notifier;
  /** Paid plans through Stripe, when configured (docs/billing.md); undefined: off, members are free. */
  billing?: StripeGateway | undefined;
  /** Logos changed since the site was built (an admin's upload, a pull), served and shown at once. */
  logos: LiveLogos;
  /** Astro's renderer of on-demand pages, when there is a built site (set by the server once loaded): the site's live pages and admin previews. */
  render?: AstroRender | undefined;
}

/** A platform-neutral handler (STYLE 1): the request, the services, and what the front door knows about the request. */
export type Handler = (request: Request, deps: Deps, context: RequestContext) => Promise<Response>;

/**
 * Wire the process's dependencies around a loaded catalog.
 * @example const deps = createDeps(config, await loadGeneratedCatalog('generated'), await GitStore.open('content'))
 */
export function createDeps(
  config: Config,
  catalog: Catalog,
  store: ContentStore,
  sessionSecret: string,
  log: Logger = createLogger(),
  redis?: RedisLink,
  submissionStore: SubmissionStore = openSubmissionStore(config, log),
): Deps {
  let state = createCatalogState(catalog, PINNED);
  const site = builtSite(catalog);
  const replace = (next: Catalog): void => {
    // What the site was built from is taken before its catalog goes.
    site.settle();
    state = createCatalogState(next, PINNED);
  };
  const clock = () => new Date();
  // The desk reads the time through `deps.clock`, which tests move (the e-mail retention sweep).
  const submissions = new SubmissionDesk(submissionStore, {
    maxPending: config.submissionsMaxPending,
    emailRetentionDays: config.submissionEmailRetentionDays,
    now: () => deps.clock(),
    log,
  });
  const accounts = new AccountBook({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, readOnly: config.serverless });
  // On a function each instance's memory is its own: without Redis these limits refuse (503) rather than count per instance.
  const rolling = (prefix: string, limit: number, windowMs: number): RollingLimit =>
    redis
      ? new RedisRollingLimit(redis.client, prefix, limit, windowMs, redis.failed)
      : config.serverless
        ? new UnsharedRollingLimit(prefix, limit, windowMs)
        : new MemoryRollingLimit(limit, windowMs);
  const logos = new LiveLogos(store.root, config.generatedDir);
  const deps: Deps = {
    config,
    log,
    clock,
    builtSite: site,
    state: () => state,
    prepared: new PreparedCache({ maxEntries: config.answerCacheEntries, maxBytes: config.answerCacheBytes, answers: config.answerCache }),
    replaceCatalog: replace,
    store,
    content: new ContentSync({
      store,
      log,
      current: () => state.catalog,
      replace,
      today: () => utcDay(clock()),
      baseUrl: listenUrl(config),
      logosChanged: (changed) => logos.refresh(changed),
    }),
    changes: new ChangeFeed(store, log),
    submissions,
    submitLimit: rolling('submissions', 5, 60 * 60 * 1000),
    auth: {
      secret: sessionSecret,
      accounts,
      loginThrottle: new LoginThrottle(rolling),
      revocations: redis ? new RedisRevocations(redis.client, redis.failed) : new MemoryRevocations(),
      oidc: config.oidc ? new OidcSignIn(config.oidc, sessionSecret) : undefined,
      // A function's DATA_DIR is a read-only bundle: no outbox there.
      mail: new AccountMail(config.notify, config.dataDir, log, { outbox: !config.serverless }),
      mailLimit: rolling('account-mail', 10, 60 * 60 * 1000),
      recipientLimit: rolling('account-mail-to', 5, 60 * 60 * 1000),
    },
    lifecycle: lifecycleTable(config.apiLifecycle),
    rateLimits: new RateLimits({ enabled: config.rateLimits, redis: redis?.client, log }),
    redis,
    searchGaps: new SearchGaps(redis ? new RedisSearchGapStore(redis.client, redis.failed) : new MemorySearchGapStore(), () => utcDay(deps.clock())),
    notify: new Notifier({
      settings: config.notify,
      log,
      site: () => state.catalog.site,
      adminAccounts: () => accounts.adminEmails(),
      forgetEmail: (id) => submissions.forgetEmail(id),
    }),
    billing: config.billing ? new StripeGateway(config.billing, log) : undefined,
    logos,
  };
  return deps;
}
