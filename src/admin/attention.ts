/**
 * The "Needs attention" page in the browser (src/pages/admin/attention/): the queues from GET
 * /api/v1/admin/attention as tables, and each row's one-click fix as an ordinary admin write
 * (one commit by the signed-in admin): mark expired, mark verified today, take a moved link's
 * new address. The page reads the queues again after each fix, so a fixed row leaves its queue.
 */
import { api, escapeHtml, failureText, say } from './api.ts';
import type { AttentionRow } from '../catalog/attention.ts';
import { readableDate } from '../catalog/labels.ts';

export type QueueName = 'expired' | 'expiring' | 'stale' | 'links';

export interface AttentionAnswer extends Record<QueueName, AttentionRow[]> {
  today: string;
  rules: { maxAgeDays: number; expiringWithinDays: number };
  linkCheck: { checkedAt?: string; checked?: number; counts?: Record<string, number>; problem?: string };
}

/** A fix: its button text, and the write that makes it. */
interface Fix {
  label: string;
  done: string;
  run: (row: AttentionRow, answer: AttentionAnswer) => Promise<unknown>;
}

const FIXES = {
  expire: {
    label: 'Mark expired',
    done: 'marked expired',
    run: (row) => api('PUT', '/api/v1/deals', { slug: row.slug, status: 'expired' }),
  },
  verify: {
    label: 'Mark verified today',
    done: 'marked verified today',
    run: (row, answer) =>
      row.kind === 'deal'
        ? api('PUT', '/api/v1/deals', { slug: row.slug, verified: true, lastVerified: answer.today })
        : api('PUT', '/api/v1/admin/startups', { slug: row.slug, lastVerified: answer.today }),
  },
  follow: {
    label: 'Use the new address',
    done: 'given the new address',
    run: (row) => api('PUT', row.kind === 'deal' ? '/api/v1/deals' : '/api/v1/admin/startups', { slug: row.slug, [row.link!.field]: row.link!.finalUrl }),
  },
} satisfies Record<string, Fix>;

type FixName = keyof typeof FIXES;

const FIELD_WORDS: Record<string, string> = { applicationUrl: 'Application link', providerWebsite: 'Provider website', sourceUrl: 'Source' };
/** The link check's verdicts (functions/links/report.ts) as an editor reads them. */
const VERDICT_WORDS: Record<string, string> = {
  moved: 'moved for good',
  gone: 'gone',
  'soft-404': 'a "not found" or "ended" page',
  'home-redirect': 'sends to the home page',
  parked: 'a parked domain',
  timeout: 'no answer in time',
  tls: 'a certificate problem',
  error: 'unreachable',
};

/** What each queue says about a row, and the fixes it offers. */
const QUEUES: Record<QueueName, { facts: (row: AttentionRow, answer: AttentionAnswer) => string; fixes: (row: AttentionRow) => FixName[] }> = {
  expired: { facts: (r) => `Expired on ${date(r.expiryDate)} (${plural(r.days, 'day')} ago)`, fixes: () => ['expire'] },
  expiring: { facts: (r) => `Expires on ${date(r.expiryDate)} (in ${plural(r.days, 'day')})`, fixes: () => [] },
  stale: { facts: (r) => (r.checkedOn ? `Last checked ${date(r.checkedOn)} (${plural(r.days, 'day')} ago)` : 'Never dated'), fixes: () => ['verify'] },
  links: {
    facts: (r) => `${FIELD_WORDS[r.link!.field] ?? r.link!.field}: ${VERDICT_WORDS[r.link!.verdict] ?? r.link!.verdict}. ${r.link!.detail}${r.link!.finalUrl ? `; now at ${r.link!.finalUrl}` : ''}`,
    fixes: (r) => (r.link!.verdict === 'moved' && r.link!.finalUrl ? ['follow'] : []),
  },
};

/** Fill each `[data-queue=<name>]` table body and `[data-count=<name>]`, and the link check's summary. */
export function render(answer: AttentionAnswer): void {
  for (const name of Object.keys(QUEUES) as QueueName[]) {
    const rows = answer[name];
    document.querySelector(`[data-count="${name}"]`)!.textContent = String(rows.length);
    document.querySelector(`[data-queue="${name}"]`)!.innerHTML = rows.length ? rows.map((row, i) => rowHtml(name, row, i, answer)).join('') : `<tr><td colspan="3">Nothing here.</td></tr>`;
  }
  const check = answer.linkCheck;
  document.querySelector('[data-link-check]')!.textContent = check.problem ?? `Links last checked ${check.checkedAt?.slice(0, 16).replace('T', ' ')} UTC (${check.checked} addresses).`;
}

/** Run the fix a clicked button names, and say how it went (the caller shows the queues again). */
export async function fix(button: HTMLButtonElement, answer: AttentionAnswer): Promise<void> {
  const { queue, index, fix: name } = button.dataset as { queue: QueueName; index: string; fix: FixName };
  const row = answer[queue][Number(index)];
  if (!row) return;
  button.disabled = true;
  try {
    await FIXES[name].run(row, answer);
    say(`${row.title}: ${FIXES[name].done}.`);
  } catch (failure) {
    button.disabled = false;
    say(`${row.title}: ${failureText(failure)}`, 'error');
  }
}

export function load(): Promise<AttentionAnswer> {
  return api<AttentionAnswer>('GET', '/api/v1/admin/attention');
}

// --- internal ---

function rowHtml(queue: QueueName, row: AttentionRow, index: number, answer: AttentionAnswer): string {
  const edit = `/admin/${row.kind}/?slug=${encodeURIComponent(row.slug)}`;
  const check = row.checkUrl ? ` · <a href="${escapeHtml(row.checkUrl)}" rel="noopener noreferrer" target="_blank">check the source</a>` : '';
  const buttons = QUEUES[queue]
    .fixes(row)
    .map((name) => `<button type="button" data-queue="${queue}" data-index="${index}" data-fix="${name}">${FIXES[name].label}</button>`)
    .join(' ');
  return `<tr><td><a href="${edit}">${escapeHtml(row.title)}</a> <span class="muted">(${row.kind})</span></td><td>${escapeHtml(QUEUES[queue].facts(row, answer))}${check}</td><td class="fixes">${buttons} <a href="${edit}">Edit</a></td></tr>`;
}

const date = (day: string | undefined) => (day ? readableDate(day) : 'an unknown day');
const plural = (n: number | undefined, word: string) => `${n ?? 0} ${n === 1 ? word : `${word}s`}`;
