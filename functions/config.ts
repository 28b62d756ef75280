/**
 * Runtime settings, read once from the environment with embedded defaults, so the service
 * runs with no configuration at all.
 */
import { join, resolve } from 'node:path';
import * as z from 'zod';
import { PLAN_FEATURES, type PlanFeature } from '../src/schemas/billing.ts';

export interface Config {
  /** The content store: a folder of Markdown/YAML (a git work tree for writes). */
  contentDir: string;
  /** Where the build writes catalog.json, search-index.json and stats.json. */
  generatedDir: string;
  /** Astro's build output. */
  distDir: string;
  host: string;
  port: number;
  /** Whether the build downloads deals' and startups' `logoUrl`s (`LOGO_FETCH=off`: no; monograms or cached logos instead). */
  logoFetch: boolean;
  /** Whether API answers are cached (`ANSWER_CACHE=off`: no, so the benchmark can measure both). */
  answerCache: boolean;
  /** The bound of the prepared-answer cache (reads/prepared-cache.ts). */
  answerCacheEntries: number;
  answerCacheBytes: number;
  /** Private runtime data: local accounts, the generated session secret. Never published. */
  dataDir: string;
  /** The last `npm run verify-links` report the admin's "Needs attention" page reads (LINK_REPORT; by default `link-health.json` in `dataDir`). */
  linkReport: string;
  /** Signs session cookies; every instance behind one site needs the same value. */
  sessionSecret: string | undefined;
  sessionTtlSeconds: number;
  /** Extra API lifecycle rows (JSON array), to deprecate routes without a code change. */
  apiLifecycle: string | undefined;
  /** General rate limits on (RATE_LIMITS=off turns them off, for benchmarks). The submission limit always holds. */
  rateLimits: boolean;
  /** Shared state for several instances (rate limits); unset means per-instance memory. */
  redisUrl: string | undefined;
  /** PostgreSQL holding the submissions, shared by several instances (docs/submissions.md); unset: files under `dataDir`. */
  databaseUrl: string | undefined;
  /** Pending submissions beyond which new ones are refused with 503. */
  submissionsMaxPending: number;
  /** Days after review that a submitter's e-mail is deleted. */
  submissionEmailRetentionDays: number;
  /** How many proxies in front to trust for X-Forwarded-For / X-Forwarded-Proto (0: ignore them). */
  trustProxyHops: number;
  /** Where Prometheus metrics are served, to loopback clients only; empty turns them off. */
  metricsPath: string;
  /** Git remote of the content store that every commit is pushed to (several instances); unset: local only. */
  contentRemote: string | undefined;
  /** Branch on that remote; by default the branch checked out (with CONTENT_GIT_URL: the remote's default branch). */
  contentBranch: string | undefined;
  /** The content store over HTTPS, with no work tree of its own (CONTENT_GIT_URL set; docs/deploying.md); unset: the git repository around `contentDir`. */
  contentGit: ContentGitConfig | undefined;
  /** Pull the remote this often (0: only on the webhook). */
  contentPullSeconds: number;
  /** Members' alert digests go out at most this often, in hours (ALERT_DIGEST_HOURS; 0: never on a timer). */
  alertDigestHours: number;
  /** Shared secret of the content webhook (POST /api/v1/hooks/content); unset: no webhook. */
  contentWebhookSecret: string | undefined;
  /** Optional OpenID Connect sign-in (OIDC_ISSUER and OIDC_CLIENT_ID set); local accounts otherwise only. */
  oidc: OidcConfig | undefined;
  /** Notices to admins and submitters (functions/notify/, docs/notifications.md); nothing is sent when nothing is set. */
  notify: NotifyConfig;
  /**
   * Running as a serverless function (set by the adapter, not by an environment variable):
   * many short-lived instances with no disk of their own. Limits that must hold across
   * instances (the 5-per-hour submission limit, the sign-in throttle) are then never counted in
   * one instance's memory: without REDIS_URL the requests relying on them answer 503. The
   * accounts file is read-only (bundled with the function).
   */
  serverless: boolean;
  /** NETLIFY_BUILD_HOOK_URL: POSTed after each content write a function commits, so the platform rebuilds the static pages; unset: none. */
  buildHookUrl: string | undefined;
  /** Optional paid plans through Stripe (docs/billing.md): all three STRIPE_* values set; unset: off, members are free. */
  billing: BillingConfig | undefined;
}

export interface BillingConfig {
  /** STRIPE_SECRET_KEY: the API key the server calls Stripe with (`sk_…`, or a restricted `rk_…`). */
  secretKey: string;
  /** STRIPE_WEBHOOK_SECRET: the signing secret of the webhook endpoint (`whsec_…`). */
  webhookSecret: string;
  /** STRIPE_PRICE_ID: the plan's recurring price (`price_…`). */
  priceId: string;
  /** PLAN_REQUIRED_FOR: the member features that need a plan; empty: none (a plan changes nothing yet). */
  requiredFor: PlanFeature[];
  /** STRIPE_API_URL: where the Stripe API is (a local stand-in such as stripe-mock); unset: api.stripe.com. */
  apiUrl: string | undefined;
}

export interface ContentGitConfig {
  /** CONTENT_GIT_URL: the repository's clone URL, https:// (http:// only to this machine), without credentials. */
  url: string;
  /** CONTENT_GIT_TOKEN: the password of HTTP Basic auth (a GitHub/GitLab/Gitea/Bitbucket access token); unset: none sent. */
  token: string | undefined;
  /** CONTENT_GIT_USERNAME: sent with the token; `x-access-token` by default (GitLab: `oauth2`, Bitbucket: `x-token-auth`). */
  username: string;
  /** CONTENT_GIT_PATH: the content folder inside the repository; `content` by default, '' for its root (`.`). */
  path: string;
}

export interface NotifyConfig {
  /** SMTP_URL and SMTP_FROM: mail goes through this server, from this address; unset: no mail. */
  smtp: { url: string; from: string } | undefined;
  /** NOTIFY_WEBHOOK_URL: a Slack-compatible incoming webhook told of each new submission; unset: none. */
  webhookUrl: string | undefined;
  /** NOTIFY_ADMIN_EMAILS: who is mailed a new submission; unset: every admin account; empty (`none`): nobody. */
  adminEmails: string[] | undefined;
  /** NOTIFY_TIMEOUT_SECONDS, in ms: the longest one mail or webhook call may take. */
  timeoutMs: number;
}

export interface OidcConfig {
  /** The provider's issuer URL (its discovery document is read from there). */
  issuer: string;
  clientId: string;
  /** Unset for a public client (PKCE only). */
  clientSecret: string | undefined;
  /** Shown on the login button: "Sign in with …". */
  name: string;
  /** Fixed callback URL; by default the site's own /api/v1/auth/oidc/callback as the request reached it. */
  redirectUri: string | undefined;
}

/**
 * The environment variables the service reads, as one schema: each is checked on its own, so a
 * wrong value is reported by its name ("PORT: expected a whole number …"), all of them at once.
 * Unset or empty means the embedded default.
 */
const optionalWholeNumber = z
  .string()
  .optional()
  .transform((text, context) => {
    if (text === undefined || text.trim() === '') return undefined;
    const value = Number(text);
    if (Number.isInteger(value) && value >= 0) return value;
    context.addIssue({ code: 'custom', message: `expected a whole number of 0 or more, got ${JSON.stringify(text)}` });
    return z.NEVER;
  });
const wholeNumber = (fallback: number) => optionalWholeNumber.transform((value) => value ?? fallback);
const text = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value === '' ? undefined : value));
const url = (what: string) => text.refine((value) => value === undefined || URL.canParse(value), { message: `expected ${what} URL` });
const urlOf = (protocols: readonly string[], what: string) => text.refine((value) => value === undefined || protocols.includes(URL.parse(value)?.protocol ?? ''), { message: `expected ${what} URL` });
/** https://, or http:// to this machine only: a URL carrying a secret (a token, a hook's id) must not cross a network in clear. */
const httpsUrl = (value: string): URL | undefined => {
  const parsed = URL.parse(value);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(parsed?.hostname ?? '');
  return parsed && (parsed.protocol === 'https:' || (parsed.protocol === 'http:' && loopback)) ? parsed : undefined;
};
const HTTPS_ONLY = 'expected an https:// URL (http:// only to localhost)';
/** A git host's URL: https:// (see httpsUrl); never with credentials in it. */
const gitUrl = text.superRefine((value, context) => {
  if (value === undefined) return;
  const parsed = httpsUrl(value);
  if (!parsed) context.addIssue({ code: 'custom', message: HTTPS_ONLY });
  else if (parsed.username || parsed.password) context.addIssue({ code: 'custom', message: 'put the token in CONTENT_GIT_TOKEN, not in the URL' });
});
/** A folder inside a repository: plain names separated by `/`, or `.` for its root. */
const repoFolder = text.refine((value) => value === undefined || value === '.' || /^[\w-]+(?:\.[\w-]+)*(?:\/[\w-]+(?:\.[\w-]+)*)*$/.test(value.replace(/^\/+|\/+$/g, '')), {
  message: 'expected a folder inside the repository, like content or site/content (or . for its root)',
});
/** An address as mail headers take it: `deals@example.com` or `Deals <deals@example.com>`. */
const isMailbox = (value: string): boolean => z.email().safeParse(/<([^<>]*)>\s*$/.exec(value)?.[1] ?? value.trim()).success;
/** A comma-separated list of e-mail addresses; `none` is the empty list. */
const emailList = text.transform((value, context) => {
  if (value === undefined) return undefined;
  if (value.trim() === 'none') return [];
  const emails = value
    .split(',')
    .map((one) => one.trim())
    .filter(Boolean);
  for (const bad of emails.filter((one) => !z.email().safeParse(one).success)) context.addIssue({ code: 'custom', message: `${JSON.stringify(bad)} is not an e-mail address` });
  return emails;
});

/** A value that must start with one of `prefixes` (the kinds of Stripe ids and keys), saying what it is. */
const prefixed = (prefixes: readonly string[], what: string) =>
  text.refine((value) => value === undefined || prefixes.some((prefix) => value.startsWith(prefix) && value.length > prefix.length), {
    message: `expected ${what} (${prefixes.map((p) => `${p}…`).join(' or ')})`,
  });
/** A comma-separated list of member features (`none`: the empty list). */
const featureList = text.transform((value, context) => {
  if (value === undefined || value.trim() === 'none') return [];
  const names = value
    .split(',')
    .map((one) => one.trim())
    .filter(Boolean);
  for (const bad of names.filter((one) => !(PLAN_FEATURES as readonly string[]).includes(one))) {
    context.addIssue({ code: 'custom', message: `${JSON.stringify(bad)} is not a member feature; expected some of ${PLAN_FEATURES.map((f) => `\`${f}\``).join(' | ')}, comma-separated` });
  }
  return [...new Set(names)] as PlanFeature[];
});
/** The three settings that together turn paid plans on. */
const STRIPE_REQUIRED = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_ID'] as const;

const EnvSchema = z
  .object({
    CONTENT_DIR: text,
    GENERATED_DIR: text,
    DIST_DIR: text,
    DATA_DIR: text,
    LINK_REPORT: text,
    HOST: text,
    PORT: wholeNumber(4321).refine((port) => port <= 65535, { message: 'expected a port number (0 to 65535)' }),
    ANSWER_CACHE: text,
    LOGO_FETCH: text,
    ANSWER_CACHE_ENTRIES: wholeNumber(20_000),
    ANSWER_CACHE_BYTES: wholeNumber(128 * 1024 * 1024),
    SESSION_SECRET: text,
    SESSION_TTL_SECONDS: wholeNumber(8 * 60 * 60),
    API_LIFECYCLE: text,
    RATE_LIMITS: text,
    REDIS_URL: url('a redis://'),
    DATABASE_URL: url('a postgres://'),
    SUBMISSIONS_MAX_PENDING: wholeNumber(1000),
    SUBMISSION_EMAIL_RETENTION_DAYS: wholeNumber(30),
    TRUST_PROXY_HOPS: wholeNumber(0),
    // Empty turns metrics off; anything else is a path.
    METRICS_PATH: z
      .string()
      .optional()
      .refine((value) => value === undefined || value === '' || value.startsWith('/'), { message: 'expected a path starting with / (or empty to turn metrics off)' }),
    CONTENT_REMOTE: text,
    CONTENT_BRANCH: text,
    CONTENT_GIT_URL: gitUrl,
    CONTENT_GIT_TOKEN: text,
    CONTENT_GIT_USERNAME: text,
    CONTENT_GIT_PATH: repoFolder,
    CONTENT_PULL_SECONDS: optionalWholeNumber,
    ALERT_DIGEST_HOURS: optionalWholeNumber,
    CONTENT_WEBHOOK_SECRET: text,
    OIDC_ISSUER: url('an https://'),
    OIDC_CLIENT_ID: text,
    OIDC_CLIENT_SECRET: text,
    OIDC_NAME: text,
    OIDC_REDIRECT_URI: url('an https://'),
    SMTP_URL: urlOf(['smtp:', 'smtps:'], 'an smtp:// or smtps://'),
    SMTP_FROM: text.refine((value) => value === undefined || isMailbox(value), { message: 'expected an e-mail address, or a name and one: Deals <deals@example.com>' }),
    NOTIFY_WEBHOOK_URL: urlOf(['https:', 'http:'], 'an https:// or http://'),
    NOTIFY_ADMIN_EMAILS: emailList,
    NOTIFY_TIMEOUT_SECONDS: wholeNumber(10).refine((seconds) => seconds >= 1, { message: 'expected 1 or more seconds' }),
    NETLIFY_BUILD_HOOK_URL: text.refine((value) => value === undefined || httpsUrl(value) !== undefined, { message: HTTPS_ONLY }),
    STRIPE_SECRET_KEY: prefixed(['sk_', 'rk_'], 'a Stripe secret key'),
    STRIPE_WEBHOOK_SECRET: prefixed(['whsec_'], "a Stripe webhook endpoint's signing secret"),
    STRIPE_PRICE_ID: prefixed(['price_'], "a Stripe price id (the plan's recurring price)"),
    STRIPE_API_URL: text.refine((value) => value === undefined || httpsUrl(value) !== undefined, { message: HTTPS_ONLY }),
    PLAN_REQUIRED_FOR: featureList,
  })
  .superRefine((env, context) => {
    // Without a sender, every mail would be refused by the server, one log line at a time.
    if (env.SMTP_URL && !env.SMTP_FROM) context.addIssue({ code: 'custom', path: ['SMTP_FROM'], message: 'required when SMTP_URL is set (the address mail is sent from)' });
    // Two stores at once cannot be meant: the writes would go to one of them only.
    if (env.CONTENT_GIT_URL && env.CONTENT_REMOTE)
      context.addIssue({ code: 'custom', path: ['CONTENT_GIT_URL'], message: 'set either CONTENT_GIT_URL (the store over HTTPS) or CONTENT_REMOTE (a local clone), not both' });
    if (env.CONTENT_GIT_TOKEN && !env.CONTENT_GIT_URL) context.addIssue({ code: 'custom', path: ['CONTENT_GIT_TOKEN'], message: 'set without CONTENT_GIT_URL (the repository it is for)' });
    // Only a function's writes over HTTPS call it: anywhere else it would silently do nothing.
    if (env.NETLIFY_BUILD_HOOK_URL && !env.CONTENT_GIT_URL)
      context.addIssue({ code: 'custom', path: ['NETLIFY_BUILD_HOOK_URL'], message: 'set without CONTENT_GIT_URL (the build hook follows the writes a function pushes there)' });
    // Paid plans are all or nothing: half a configuration would take members' money without ever hearing back, or never start.
    const stripeSet = STRIPE_REQUIRED.filter((name) => env[name] !== undefined);
    if (stripeSet.length > 0) {
      for (const name of STRIPE_REQUIRED.filter((one) => env[one] === undefined)) {
        context.addIssue({ code: 'custom', path: [name], message: `required with ${stripeSet.join(' and ')} set (paid plans need ${STRIPE_REQUIRED.join(', ')})` });
      }
    } else {
      if (env.PLAN_REQUIRED_FOR.length > 0)
        context.addIssue({ code: 'custom', path: ['PLAN_REQUIRED_FOR'], message: `set without paid plans (${STRIPE_REQUIRED.join(', ')}): members could never get what it gates` });
      if (env.STRIPE_API_URL) context.addIssue({ code: 'custom', path: ['STRIPE_API_URL'], message: `set without paid plans (${STRIPE_REQUIRED.join(', ')})` });
    }
  });

/**
 * The address the server listens on, as a URL people can open: the site's `baseUrl` when
 * `content/site.yaml` names none. A wildcard host (`0.0.0.0`, `::`) is named `localhost`.
 * @example listenUrl({ host: '127.0.0.1', port: 4700 }) // 'http://127.0.0.1:4700'
 */
export function listenUrl(config: Pick<Config, 'host' | 'port'>): string {
  const host = config.host === '0.0.0.0' || config.host === '::' || config.host === '' ? 'localhost' : config.host;
  return new URL(`http://${host.includes(':') ? `[${host}]` : host}:${config.port}`).origin;
}

/** Where the content store pushes, when it does: the git remote's name (CONTENT_REMOTE) or the HTTPS URL (CONTENT_GIT_URL). */
export function contentRemoteOf(config: Pick<Config, 'contentRemote' | 'contentGit'>): string | undefined {
  return config.contentRemote ?? config.contentGit?.url;
}

/** A setting that is wrong, by the variable that holds it. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * @throws ConfigError naming every variable whose value is wrong
 * @example loadConfig({ PORT: '8080' }).port // 8080
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, root = process.cwd()): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid setting${problems.length > 1 ? 's' : ''}: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  return {
    contentDir: resolve(root, e.CONTENT_DIR ?? 'content'),
    generatedDir: resolve(root, e.GENERATED_DIR ?? 'generated'),
    distDir: resolve(root, e.DIST_DIR ?? 'dist'),
    host: e.HOST ?? '127.0.0.1',
    port: e.PORT,
    logoFetch: e.LOGO_FETCH !== 'off',
    answerCache: e.ANSWER_CACHE !== 'off',
    answerCacheEntries: e.ANSWER_CACHE_ENTRIES,
    answerCacheBytes: e.ANSWER_CACHE_BYTES,
    dataDir: resolve(root, e.DATA_DIR ?? '.data'),
    linkReport: resolve(root, e.LINK_REPORT ?? join(e.DATA_DIR ?? '.data', 'link-health.json')),
    sessionSecret: e.SESSION_SECRET,
    sessionTtlSeconds: e.SESSION_TTL_SECONDS,
    apiLifecycle: e.API_LIFECYCLE,
    rateLimits: e.RATE_LIMITS !== 'off',
    redisUrl: e.REDIS_URL,
    databaseUrl: e.DATABASE_URL,
    submissionsMaxPending: e.SUBMISSIONS_MAX_PENDING,
    submissionEmailRetentionDays: e.SUBMISSION_EMAIL_RETENTION_DAYS,
    trustProxyHops: e.TRUST_PROXY_HOPS,
    metricsPath: e.METRICS_PATH ?? '/_internal/metrics',
    contentRemote: e.CONTENT_REMOTE,
    contentBranch: e.CONTENT_BRANCH,
    contentGit: e.CONTENT_GIT_URL
      ? {
          url: e.CONTENT_GIT_URL,
          token: e.CONTENT_GIT_TOKEN,
          username: e.CONTENT_GIT_USERNAME ?? 'x-access-token',
          path: e.CONTENT_GIT_PATH === '.' ? '' : (e.CONTENT_GIT_PATH?.replace(/^\/+|\/+$/g, '') ?? 'content'),
        }
      : undefined,
    // Unset: every 5 s with a remote, never without one.
    contentPullSeconds: e.CONTENT_PULL_SECONDS ?? (e.CONTENT_REMOTE || e.CONTENT_GIT_URL ? 5 : 0),
    alertDigestHours: e.ALERT_DIGEST_HOURS ?? 24,
    contentWebhookSecret: e.CONTENT_WEBHOOK_SECRET,
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID
        ? { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET, name: e.OIDC_NAME ?? 'single sign-on', redirectUri: e.OIDC_REDIRECT_URI }
        : undefined,
    notify: {
      smtp: e.SMTP_URL && e.SMTP_FROM ? { url: e.SMTP_URL, from: e.SMTP_FROM } : undefined,
      webhookUrl: e.NOTIFY_WEBHOOK_URL,
      adminEmails: e.NOTIFY_ADMIN_EMAILS,
      timeoutMs: e.NOTIFY_TIMEOUT_SECONDS * 1000,
    },
    serverless: false,
    buildHookUrl: e.NETLIFY_BUILD_HOOK_URL,
    billing:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET && e.STRIPE_PRICE_ID
        ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, priceId: e.STRIPE_PRICE_ID, requiredFor: e.PLAN_REQUIRED_FOR, apiUrl: e.STRIPE_API_URL }
        : undefined,
  };
}
