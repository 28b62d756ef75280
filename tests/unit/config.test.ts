/**
 * Settings from the environment (functions/config.ts): embedded defaults when nothing is set, every
 * wrong value reported by its variable's name at once, and an operator's command that ends with
 * that message (no stack trace) and reads an optional `.env` the environment overrides.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../functions/config.ts';

const ROOT = join(import.meta.dirname, '..', '..');

describe('loadConfig', () => {
  test('nothing set: the embedded defaults', () => {
    const config = loadConfig({}, '/srv/deals');
    expect(config).toMatchObject({ port: 4321, host: '127.0.0.1', contentDir: '/srv/deals/content', metricsPath: '/_internal/metrics', rateLimits: true, contentPullSeconds: 0, oidc: undefined });
    expect(loadConfig({ CONTENT_REMOTE: 'https://git.example/deals.git' }).contentPullSeconds).toBe(5);
    expect(loadConfig({ CONTENT_REMOTE: 'https://git.example/deals.git', CONTENT_PULL_SECONDS: '0' }).contentPullSeconds).toBe(0);
    expect(loadConfig({ PORT: '', METRICS_PATH: '' })).toMatchObject({ port: 4321, metricsPath: '' });
  });

  test('every wrong value is named, all at once', () => {
    const wrong = () => loadConfig({ PORT: 'eighty', SESSION_TTL_SECONDS: '-5', REDIS_URL: 'not a url', METRICS_PATH: 'metrics', TRUST_PROXY_HOPS: '1.5' });
    expect(wrong).toThrow(ConfigError);
    const message = (() => {
      try {
        wrong();
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    for (const name of ['PORT', 'SESSION_TTL_SECONDS', 'REDIS_URL', 'METRICS_PATH', 'TRUST_PROXY_HOPS']) expect(message).toContain(`${name}: `);
    expect(message).toContain('got "eighty"');
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT: expected a port number/);
  });

  test('OpenID Connect only with an issuer URL and a client id', () => {
    expect(loadConfig({ OIDC_ISSUER: 'https://id.example' }).oidc).toBeUndefined();
    expect(loadConfig({ OIDC_ISSUER: 'https://id.example', OIDC_CLIENT_ID: 'deals' }).oidc).toMatchObject({ issuer: 'https://id.example', clientId: 'deals', name: 'single sign-on' });
    expect(() => loadConfig({ OIDC_ISSUER: 'id.example', OIDC_CLIENT_ID: 'deals' })).toThrow(/OIDC_ISSUER/);
  });
});

describe('the content store over HTTPS (CONTENT_GIT_*)', () => {
  test('unset: none; CONTENT_GIT_URL alone: GitHub-style username, the content folder, a 5 s pull', () => {
    expect(loadConfig({}).contentGit).toBeUndefined();
    const config = loadConfig({ CONTENT_GIT_URL: 'https://github.com/acme/deals-content.git', CONTENT_GIT_TOKEN: 'ghs_x' });
    expect(config.contentGit).toEqual({ url: 'https://github.com/acme/deals-content.git', token: 'ghs_x', username: 'x-access-token', path: 'content' });
    expect(config.contentPullSeconds).toBe(5);
    expect(loadConfig({ CONTENT_GIT_URL: 'https://gitlab.example/a/b.git', CONTENT_GIT_USERNAME: 'oauth2', CONTENT_GIT_PATH: '.' }).contentGit).toMatchObject({ username: 'oauth2', path: '' });
    expect(loadConfig({ CONTENT_GIT_URL: 'http://127.0.0.1:8080/c.git', CONTENT_GIT_PATH: 'site/content/' }).contentGit).toMatchObject({ path: 'site/content' });
  });

  test('a wrong value is named by its variable: plain http to another host, a token in the URL, a path leaving the repository, two stores at once', () => {
    expect(() => loadConfig({ CONTENT_GIT_URL: 'http://git.example/c.git' })).toThrow(/CONTENT_GIT_URL: expected an https:\/\/ URL/);
    expect(() => loadConfig({ CONTENT_GIT_URL: 'https://x-access-token:secret@github.com/a/b.git' })).toThrow(/CONTENT_GIT_URL: put the token in CONTENT_GIT_TOKEN/);
    expect(() => loadConfig({ CONTENT_GIT_URL: 'https://github.com/a/b.git', CONTENT_GIT_PATH: '../etc' })).toThrow(/CONTENT_GIT_PATH: expected a folder/);
    expect(() => loadConfig({ CONTENT_GIT_URL: 'https://github.com/a/b.git', CONTENT_REMOTE: 'origin' })).toThrow(/CONTENT_GIT_URL: set either/);
    expect(() => loadConfig({ CONTENT_GIT_TOKEN: 'secret' })).toThrow(/CONTENT_GIT_TOKEN: set without CONTENT_GIT_URL/);
  });

  test('NETLIFY_BUILD_HOOK_URL: https (http only to this machine), with the store over HTTPS; not a serverless setting of its own', () => {
    const git = { CONTENT_GIT_URL: 'https://github.com/a/b.git' };
    expect(loadConfig(git).buildHookUrl).toBeUndefined();
    expect(loadConfig(git).serverless).toBe(false);
    expect(loadConfig({ ...git, NETLIFY_BUILD_HOOK_URL: 'https://api.netlify.com/build_hooks/abc' }).buildHookUrl).toBe('https://api.netlify.com/build_hooks/abc');
    expect(loadConfig({ ...git, NETLIFY_BUILD_HOOK_URL: 'http://127.0.0.1:9/hook' }).buildHookUrl).toBe('http://127.0.0.1:9/hook');
    expect(() => loadConfig({ ...git, NETLIFY_BUILD_HOOK_URL: 'http://api.netlify.com/build_hooks/abc' })).toThrow(/NETLIFY_BUILD_HOOK_URL: expected an https:\/\/ URL/);
    expect(() => loadConfig({ ...git, NETLIFY_BUILD_HOOK_URL: 'not a url' })).toThrow(/NETLIFY_BUILD_HOOK_URL/);
    expect(() => loadConfig({ NETLIFY_BUILD_HOOK_URL: 'https://api.netlify.com/build_hooks/abc' })).toThrow(/NETLIFY_BUILD_HOOK_URL: set without CONTENT_GIT_URL/);
  });
});

describe('notification settings', () => {
  test('nothing set: nothing is sent; SMTP_URL with SMTP_FROM turns mail on; admins from a list, none, or the accounts', () => {
    expect(loadConfig({}).notify).toEqual({ smtp: undefined, webhookUrl: undefined, adminEmails: undefined, timeoutMs: 10_000 });
    const on = loadConfig({
      SMTP_URL: 'smtps://deals:secret@mail.example:465',
      SMTP_FROM: 'Startup Deals <deals@example.com>',
      NOTIFY_WEBHOOK_URL: 'https://hooks.slack.com/services/T0/B0/x',
      NOTIFY_ADMIN_EMAILS: ' ada@example.com, bo@example.com ',
      NOTIFY_TIMEOUT_SECONDS: '3',
    }).notify;
    expect(on).toEqual({
      smtp: { url: 'smtps://deals:secret@mail.example:465', from: 'Startup Deals <deals@example.com>' },
      webhookUrl: 'https://hooks.slack.com/services/T0/B0/x',
      adminEmails: ['ada@example.com', 'bo@example.com'],
      timeoutMs: 3000,
    });
    expect(loadConfig({ NOTIFY_ADMIN_EMAILS: 'none' }).notify.adminEmails).toEqual([]);
  });

  test('a wrong value is named by its variable', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example' })).toThrow(/SMTP_FROM: required when SMTP_URL is set/);
    expect(() => loadConfig({ SMTP_URL: 'https://mail.example', SMTP_FROM: 'deals@example.com' })).toThrow(/SMTP_URL: expected an smtp:\/\/ or smtps:\/\/ URL/);
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example', SMTP_FROM: 'Deals <deals>' })).toThrow(/SMTP_FROM: expected an e-mail address/);
    expect(() => loadConfig({ NOTIFY_WEBHOOK_URL: 'hooks.slack.com/x' })).toThrow(/NOTIFY_WEBHOOK_URL: expected an https:\/\//);
    expect(() => loadConfig({ NOTIFY_ADMIN_EMAILS: 'ada@example.com, bob@' })).toThrow(/NOTIFY_ADMIN_EMAILS: "bob@" is not an e-mail address/);
    expect(() => loadConfig({ NOTIFY_TIMEOUT_SECONDS: '0' })).toThrow(/NOTIFY_TIMEOUT_SECONDS: expected 1 or more seconds/);
  });
});

describe('paid plans (STRIPE_*, PLAN_REQUIRED_FOR)', () => {
  const STRIPE = { STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc', STRIPE_PRICE_ID: 'price_abc' };
  const message = (env: Record<string, string>): string => {
    try {
      loadConfig(env);
      return '';
    } catch (error) {
      return (error as Error).message;
    }
  };

  test('off unless all three are set; then on, gating the features named (none by default)', () => {
    expect(loadConfig({}).billing).toBeUndefined();
    expect(loadConfig(STRIPE).billing).toEqual({ secretKey: 'sk_test_abc', webhookSecret: 'whsec_abc', priceId: 'price_abc', requiredFor: [], apiUrl: undefined });
    expect(loadConfig({ ...STRIPE, STRIPE_SECRET_KEY: 'rk_live_abc', PLAN_REQUIRED_FOR: ' saved, alerts,saved ' }).billing).toMatchObject({
      secretKey: 'rk_live_abc',
      requiredFor: ['saved', 'alerts'],
    });
    expect(loadConfig({ ...STRIPE, PLAN_REQUIRED_FOR: 'none' }).billing?.requiredFor).toEqual([]);
    expect(loadConfig({ ...STRIPE, STRIPE_API_URL: 'http://127.0.0.1:12111' }).billing?.apiUrl).toBe('http://127.0.0.1:12111');
  });

  test('a partial configuration stops the start, naming what is missing; so do a feature unknown, a wrong kind of key and settings without paid plans', () => {
    expect(message({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toBe(
      'invalid settings: STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY set (paid plans need STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID); STRIPE_PRICE_ID: required with STRIPE_SECRET_KEY set (paid plans need STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID)',
    );
    expect(message({ ...STRIPE, PLAN_REQUIRED_FOR: 'saved,dashbord' })).toBe(
      'invalid setting: PLAN_REQUIRED_FOR: "dashbord" is not a member feature; expected some of `saved` | `dashboard` | `alerts` | `submissions`, comma-separated',
    );
    expect(message({ ...STRIPE, STRIPE_SECRET_KEY: 'pk_test_abc' })).toContain('STRIPE_SECRET_KEY: expected a Stripe secret key (sk_… or rk_…)');
    expect(message({ ...STRIPE, STRIPE_WEBHOOK_SECRET: 'abc' })).toContain("STRIPE_WEBHOOK_SECRET: expected a Stripe webhook endpoint's signing secret (whsec_…)");
    expect(message({ ...STRIPE, STRIPE_PRICE_ID: 'prod_abc' })).toContain('STRIPE_PRICE_ID: expected a Stripe price id');
    expect(message({ ...STRIPE, STRIPE_API_URL: 'http://stripe.example' })).toContain('STRIPE_API_URL: expected an https:// URL (http:// only to localhost)');
    expect(message({ PLAN_REQUIRED_FOR: 'saved' })).toBe(
      'invalid setting: PLAN_REQUIRED_FOR: set without paid plans (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID): members could never get what it gates',
    );
    expect(message({ STRIPE_API_URL: 'http://127.0.0.1:1' })).toContain('STRIPE_API_URL: set without paid plans');
    // A secret never appears in the message.
    expect(message({ STRIPE_SECRET_KEY: 'sk_live_verysecret' })).not.toContain('verysecret');
  });
});

describe('an operator command', () => {
  const node = join(ROOT, 'node_modules', '.bin', 'node');

  test('a wrong setting ends it with the variable and no stack trace (exit 2)', () => {
    const run = spawnSync(node, [join(ROOT, 'scripts', 'check.ts')], { cwd: ROOT, env: { ...process.env, PORT: 'eighty' }, encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('PORT: expected a whole number of 0 or more, got "eighty"');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  test('.env in the working directory fills what the environment does not set; the environment wins', () => {
    const dir = mkdtempSync(join(tmpdir(), 'deals-env-'));
    writeFileSync(join(dir, '.env'), 'CONTENT_DIR=from-dotenv\nPORT=not-a-number\n');
    const withEnvWinning = spawnSync(node, [join(ROOT, 'scripts', 'check.ts')], { cwd: dir, env: { ...process.env, PORT: '8080' }, encoding: 'utf8' });
    // PORT comes from the environment (valid), CONTENT_DIR from .env (a folder that does not exist here).
    expect(withEnvWinning.stderr).not.toContain('PORT');
    expect(`${withEnvWinning.stdout}${withEnvWinning.stderr}`).toContain('from-dotenv');
    const { PORT: _unset, ...withoutPort } = process.env;
    const fromFile = spawnSync(node, [join(ROOT, 'scripts', 'check.ts')], { cwd: dir, env: withoutPort, encoding: 'utf8' });
    expect(fromFile.status).toBe(2);
    expect(fromFile.stderr).toContain('PORT: expected a whole number of 0 or more, got "not-a-number"');
  });
});
