/**
 * A saved item's changes in words, for the dashboard and the alert digest alike:
 * "Value: $5,000 → $10,000", "Last day: 1 December 2026 (was none)".
 */
import type { WatchedChange, WatchedField } from '../schemas/dashboard.ts';
import { readableDate, statusLabel } from './labels.ts';

const FIELD_WORDS: Readonly<Record<WatchedField, string>> = {
  state: 'Listing',
  title: 'Title',
  value: 'Value',
  status: 'Status',
  expiryDate: 'Last day',
  forSale: 'Sale',
  askingPrice: 'Asking price',
};

const STATE_WORDS: Readonly<Record<string, string>> = { live: 'listed', expired: 'expired', removed: 'no longer listed' };

/**
 * @example changeWords({ field: 'value', from: '$5,000', to: '$10,000' }) // 'Value: $5,000 → $10,000'
 */
export function changeWords(change: WatchedChange): string {
  const word = (value: string | undefined) => (value === undefined ? 'none' : factWords(change.field, value));
  return `${FIELD_WORDS[change.field]}: ${word(change.from)} → ${word(change.to)}`;
}

// --- internal ---

function factWords(field: WatchedField, value: string): string {
  if (field === 'state') return STATE_WORDS[value] ?? value;
  if (field === 'status') return statusLabel(value);
  if (field === 'expiryDate') return readableDate(value);
  return value;
}
