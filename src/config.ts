/**
 * Runtime settings, read once from the environment with embedded defaults, so the service
 * runs with no configuration at all.
 */
import { resolve } from 'node:path';

export interface Config {
  /** The content store: a folder of Markdown/YAML (a git work tree for writes). */
  contentDir: string;
  /** Where the build writes catalog.json, search-index.json and stats.json. */
  generatedDir: string;
  /** Astro's build output. */
  distDir: string;
  host: string;
  port: number;
  /** Answer cache size; 0 entries turns it off (the benchmark measures both). */
  answerCacheEntries: number;
  answerCacheBytes: number;
  /** Private runtime data: local accounts, the generated session secret. Never published. */
  dataDir: string;
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
  /** Branch on that remote; by default the branch checked out. */
  contentBranch: string | undefined;
  /** Pull the remote this often (0: only on the webhook). */
  contentPullSeconds: number;
  /** Shared secret of the content webhook (POST /api/v1/hooks/content); unset: no webhook. */
  contentWebhookSecret: string | undefined;
  /** Optional OpenID Connect sign-in (OIDC_ISSUER and OIDC_CLIENT_ID set); local accounts otherwise only. */
  oidc: OidcConfig | undefined;
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
 * @example loadConfig({ PORT: '8080' }).port // 8080
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, root = process.cwd()): Config {
  return {
    contentDir: resolve(root, env.CONTENT_DIR ?? 'content'),
    generatedDir: resolve(root, env.GENERATED_DIR ?? 'generated'),
    distDir: resolve(root, env.DIST_DIR ?? 'dist'),
    host: env.HOST ?? '127.0.0.1',
    port: integer(env.PORT, 4321),
    answerCacheEntries: env.ANSWER_CACHE === 'off' ? 0 : integer(env.ANSWER_CACHE_ENTRIES, 10_000),
    answerCacheBytes: integer(env.ANSWER_CACHE_BYTES, 64 * 1024 * 1024),
    dataDir: resolve(root, env.DATA_DIR ?? '.data'),
    sessionSecret: env.SESSION_SECRET || undefined,
    sessionTtlSeconds: integer(env.SESSION_TTL_SECONDS, 8 * 60 * 60),
    apiLifecycle: env.API_LIFECYCLE || undefined,
    rateLimits: env.RATE_LIMITS !== 'off',
    redisUrl: env.REDIS_URL || undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    submissionsMaxPending: integer(env.SUBMISSIONS_MAX_PENDING, 1000),
    submissionEmailRetentionDays: integer(env.SUBMISSION_EMAIL_RETENTION_DAYS, 30),
    trustProxyHops: integer(env.TRUST_PROXY_HOPS, 0),
    metricsPath: env.METRICS_PATH ?? '/_internal/metrics',
    contentRemote: env.CONTENT_REMOTE || undefined,
    contentBranch: env.CONTENT_BRANCH || undefined,
    contentPullSeconds: integer(env.CONTENT_PULL_SECONDS, env.CONTENT_REMOTE ? 5 : 0),
    contentWebhookSecret: env.CONTENT_WEBHOOK_SECRET || undefined,
    oidc: oidcConfig(env),
  };
}

// --- internal ---

function oidcConfig(env: Record<string, string | undefined>): OidcConfig | undefined {
  if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID) return undefined;
  if (!URL.canParse(env.OIDC_ISSUER)) throw new Error(`OIDC_ISSUER must be a URL, got "${env.OIDC_ISSUER}"`);
  return {
    issuer: env.OIDC_ISSUER,
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET || undefined,
    name: env.OIDC_NAME || 'single sign-on',
    redirectUri: env.OIDC_REDIRECT_URI || undefined,
  };
}

function integer(text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`expected a whole number, got "${text}"`);
  return value;
}
