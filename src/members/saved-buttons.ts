/**
 * The save buttons in the browser (issue 18, item 3). Each button is a plain form that works
 * without JavaScript (SaveButton.astro); this script makes them toggles: it asks for the
 * member's saved ids once per page (only when the signed-in hint cookie says a session was
 * started here: anonymous visits cost no request), marks the saved ones "Saved"
 * (`aria-pressed`), and saves or removes with `fetch`, without reloading. The built pages stay
 * the same for everyone: nothing member-specific is in their HTML.
 */

interface SavedIds {
  deal: string[];
  startup: string[];
}

/** functions/auth/session.ts `SIGNED_IN_HINT`: set at sign-in beside the (unreadable) session cookie. */
const HINT = 'deals_signed_in';
const ENDPOINT = '/api/v1/me/saved';

const forms = (): HTMLFormElement[] => [...document.querySelectorAll<HTMLFormElement>('form[data-save]')];
const field = (form: HTMLFormElement, name: string): HTMLInputElement | null => form.querySelector<HTMLInputElement>(`input[name="${name}"]`);
/** The header's member links (SavedLink.astro, and the menu's Sign out in Base.astro). */
const memberLinks = (): HTMLElement[] => [...document.querySelectorAll<HTMLElement>('[data-saved-link], [data-sign-out], [data-sign-out-menu]')];
const signedIn = (): boolean => document.cookie.split(';').some((c) => c.trim() === `${HINT}=1`);

/** Show a form as saved or not: the button's words and `aria-pressed`, and what the next press does. */
function mark(form: HTMLFormElement, saved: boolean): void {
  const action = field(form, 'action');
  if (action) action.value = saved ? 'remove' : 'save';
  const button = form.querySelector<HTMLButtonElement>('button');
  button?.setAttribute('aria-pressed', String(saved));
  const label = form.querySelector<HTMLElement>('[data-save-label]');
  if (label) label.textContent = saved ? 'Saved' : 'Save';
}

/** Say something in the page's status region (MemberNav.astro); empty hides it. */
function say(message: string): void {
  const region = document.querySelector<HTMLElement>('[data-save-status]');
  if (!region) return;
  region.textContent = message;
  region.hidden = message === '';
}

/** The session ended (or never was): forget the hint, so later pages ask nothing. */
function forgetHint(): void {
  document.cookie = `${HINT}=; Path=/; Max-Age=0; SameSite=Lax`;
  for (const link of memberLinks()) link.hidden = true;
}

function toLogin(): void {
  location.href = `/login?next=${encodeURIComponent(location.pathname + location.search)}`;
}

async function toggle(event: SubmitEvent): Promise<void> {
  // Nobody signed in here: the form goes as it is, and the server sends the browser to sign in and back.
  if (!signedIn()) return;
  const form = event.currentTarget as HTMLFormElement;
  event.preventDefault();
  const kind = field(form, 'kind')?.value;
  const id = field(form, 'id')?.value;
  const saving = field(form, 'action')?.value !== 'remove';
  // Every button for the same record changes together (a card and the page's own button).
  const same = forms().filter((f) => field(f, 'kind')?.value === kind && field(f, 'id')?.value === id);
  for (const f of same) mark(f, saving);
  const response = await fetch(ENDPOINT, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ kind, id, action: saving ? 'save' : 'remove' }),
  }).catch(() => undefined);
  if (response?.status === 401) {
    forgetHint();
    return toLogin();
  }
  // Saving needs a plan the member lacks (paid plans on): the billing page says how to start one, as a form post would.
  if (response?.status === 402) {
    for (const f of same) mark(f, !saving);
    location.href = '/account/billing/?needed=saved';
    return;
  }
  if (!response?.ok) {
    for (const f of same) mark(f, !saving);
    const failure = (await response?.json().catch(() => undefined)) as { error?: string } | undefined;
    return say(failure?.error ?? 'That did not work; try again.');
  }
  say('');
  // Cards drawn later (instant search) show the list as it is now.
  const ids = await savedIds;
  const listed = ids && kind && id ? ids[kind as keyof SavedIds] : undefined;
  if (ids && listed) ids[kind as keyof SavedIds] = saving ? [...new Set([...listed, id as string])] : listed.filter((one) => one !== id);
}

/** The member's saved ids, asked once per page (undefined: nobody signed in, or not asked yet). */
let savedIds: Promise<SavedIds | undefined> | undefined;

async function askSavedIds(): Promise<SavedIds | undefined> {
  const response = await fetch(ENDPOINT, { credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'application/json' } }).catch(() => undefined);
  if (response?.status === 401) forgetHint();
  if (!response?.ok) return undefined;
  return ((await response.json()) as { ids: SavedIds }).ids;
}

/**
 * Make the save forms inside `root` toggles, marked as saved or not: the page's own at start,
 * and the cards instant search draws later (InstantSearch.astro calls this after each draw).
 */
export async function enhanceSaveForms(root: ParentNode = document): Promise<void> {
  const found = [...root.querySelectorAll<HTMLFormElement>('form[data-save]')].filter((form) => !form.dataset.enhanced);
  for (const form of found) {
    form.dataset.enhanced = 'true';
    mark(form, false);
    form.addEventListener('submit', (event) => void toggle(event));
  }
  if (!signedIn() || found.length === 0) return;
  savedIds ??= askSavedIds();
  const ids = await savedIds;
  if (!ids) return;
  for (const form of found) {
    const kind = field(form, 'kind')?.value as keyof SavedIds | undefined;
    if (kind && ids[kind]?.includes(field(form, 'id')?.value ?? '')) mark(form, true);
  }
}

function start(): void {
  if (signedIn()) for (const link of memberLinks()) link.hidden = false;
  void enhanceSaveForms();
}

start();
