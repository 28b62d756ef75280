/**
 * Members' plans in the service's database (functions/db/, migration 5): one row per account
 * with its Stripe customer and the subscription as the webhook last reported it, and the ids of
 * the events already processed. An event is recorded and applied in one transaction under the
 * billing lock, so the same delivery reaching two instances at once is applied once. The same
 * SQL on SQLite and PostgreSQL.
 */
import { LOCKS, type Database, type Queries } from '../db/database.ts';
import { supersedes, type PlanRow, type SubscriptionReport } from './plan-state.ts';

/** What a verified event asks of the store (functions/billing/stripe-events.ts). */
export type PlanChange =
  /** A completed Checkout: the account's Stripe customer (and the subscription it started). */
  | { kind: 'customer'; account: string; customerId: string; subscriptionId: string | null }
  /** A subscription's state; its account named by the subscription's metadata, else found by its customer. */
  | { kind: 'subscription'; account: string | null; customerId: string; report: SubscriptionReport }
  | { kind: 'ignore'; reason: string };

/** What applying an event did (the webhook's `outcome`); `ignored` with the reason. */
export type PlanOutcome = { outcome: 'applied' | 'duplicate' | 'superseded'; account?: string } | { outcome: 'ignored'; reason: string };

/** How long processed event ids are kept: well beyond the 3 days Stripe retries a delivery for. */
export const EVENT_ID_RETENTION_DAYS = 30;

export class PlanStore {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  /** The account's plan, if it ever had a billing customer. */
  async find(account: string): Promise<PlanRow | undefined> {
    const [row] = await this.db.all<Row>(`SELECT ${COLUMNS} FROM member_plans WHERE account = $1`, [account]);
    return row && fromRow(row);
  }

  /**
   * Record event `id` and apply `change`, once: an id already recorded changes nothing
   * (`duplicate`). Ids older than `EVENT_ID_RETENTION_DAYS` are forgotten on the way.
   */
  apply(event: { id: string; type: string }, change: PlanChange, now: Date): Promise<PlanOutcome> {
    return this.db.transaction(LOCKS.billing, async (tx) => {
      const fresh = await tx.run('INSERT INTO billing_events (event_id, type, received_at) VALUES ($1, $2, $3) ON CONFLICT (event_id) DO NOTHING', [event.id, event.type, now.toISOString()]);
      if (fresh === 0) return { outcome: 'duplicate' };
      await tx.run('DELETE FROM billing_events WHERE received_at < $1', [new Date(now.getTime() - EVENT_ID_RETENTION_DAYS * 86_400_000).toISOString()]);
      if (change.kind === 'ignore') return { outcome: 'ignored', reason: change.reason };
      if (change.kind === 'customer') return linkCustomer(tx, change, now);
      return applySubscription(tx, change, now);
    });
  }
}

// --- internal ---

interface Row {
  account: string;
  customer_id: string | null;
  subscription_id: string | null;
  status: string | null;
  trial_end: string | null;
  current_period_end: string | null;
  cancel_at: string | null;
  state_event_at: string | null;
  updated_at: string;
}

const COLUMNS = 'account, customer_id, subscription_id, status, trial_end, current_period_end, cancel_at, state_event_at, updated_at';

function fromRow(r: Row): PlanRow {
  return {
    account: r.account,
    customerId: r.customer_id,
    subscriptionId: r.subscription_id,
    status: r.status,
    trialEnd: r.trial_end,
    currentPeriodEnd: r.current_period_end,
    cancelAt: r.cancel_at,
    stateEventAt: r.state_event_at,
    updatedAt: r.updated_at,
  };
}

async function accountExists(q: Queries, account: string): Promise<boolean> {
  return (await q.all('SELECT 1 FROM accounts WHERE email = $1', [account])).length > 0;
}

/** The account's customer is the one its completed Checkout made (or reused); its first subscription id is kept, the state left to subscription events. */
async function linkCustomer(tx: Queries, change: Extract<PlanChange, { kind: 'customer' }>, now: Date): Promise<PlanOutcome> {
  if (!(await accountExists(tx, change.account))) return { outcome: 'ignored', reason: 'no_account' };
  await tx.run(
    `INSERT INTO member_plans (account, customer_id, subscription_id, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (account) DO UPDATE SET customer_id = excluded.customer_id, subscription_id = COALESCE(member_plans.subscription_id, excluded.subscription_id), updated_at = excluded.updated_at`,
    [change.account, change.customerId, change.subscriptionId, now.toISOString()],
  );
  return { outcome: 'applied', account: change.account };
}

async function applySubscription(tx: Queries, change: Extract<PlanChange, { kind: 'subscription' }>, now: Date): Promise<PlanOutcome> {
  const account = await accountOf(tx, change);
  if (!account) return { outcome: 'ignored', reason: 'no_account' };
  const [stored] = await tx.all<Row>(`SELECT ${COLUMNS} FROM member_plans WHERE account = $1`, [account]);
  const { report } = change;
  if (!supersedes(stored && fromRow(stored), report)) return { outcome: 'superseded', account };
  await tx.run(
    `INSERT INTO member_plans (account, customer_id, subscription_id, status, trial_end, current_period_end, cancel_at, state_event_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (account) DO UPDATE SET customer_id = excluded.customer_id, subscription_id = excluded.subscription_id, status = excluded.status,
       trial_end = excluded.trial_end, current_period_end = excluded.current_period_end, cancel_at = excluded.cancel_at,
       state_event_at = excluded.state_event_at, updated_at = excluded.updated_at`,
    [account, change.customerId, report.subscriptionId, report.status, report.trialEnd, report.currentPeriodEnd, report.cancelAt, report.eventAt, now.toISOString()],
  );
  return { outcome: 'applied', account };
}

/** The subscription's account: the one its metadata names (set by our Checkout), else the one with its customer (a subscription made in Stripe's dashboard). */
async function accountOf(tx: Queries, change: Extract<PlanChange, { kind: 'subscription' }>): Promise<string | undefined> {
  if (change.account && (await accountExists(tx, change.account))) return change.account;
  const [row] = await tx.all<{ account: string }>('SELECT account FROM member_plans WHERE customer_id = $1 ORDER BY updated_at DESC LIMIT 1', [change.customerId]);
  return row?.account;
}
