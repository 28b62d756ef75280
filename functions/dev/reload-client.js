// The page script of `npm run dev` (added to every page by functions/dev/dev-site.ts, never in
// production): reload when the catalog or the server changed, and show content errors over the
// page until a save fixes them.
/* global document, location, EventSource, addEventListener */

const events = new EventSource('/_dev/events');
let boot;
let box;
// Typed into a form (an admin edit, the submit form): a reload would lose it, so ask instead.
let typed = false;
addEventListener('input', () => (typed = true));
// Closed before the page goes, so leaving it never flashes the "not answering" box.
addEventListener('pagehide', () => events.close());

events.addEventListener('hello', (event) => {
  const next = JSON.parse(event.data).boot;
  show(undefined);
  // Another server process: `npm run dev` restarted after a code change, so every page may differ.
  if (boot !== undefined && boot !== next) reload();
  boot = next;
});
events.addEventListener('reload', () => reload());
events.addEventListener('problem', (event) => show('Content error: this page shows the last good catalog until the file is fixed', JSON.parse(event.data).lines));
events.addEventListener('ok', () => show(undefined));
events.addEventListener('error', () => {
  // EventSource reconnects by itself; say why nothing updates meanwhile.
  if (events.readyState !== EventSource.OPEN) show('The dev server is not answering (restarting after a code change, or stopped): see its terminal', [], 'note');
});

function reload() {
  if (typed) return show('The site changed: reload this page to see it (it was not reloaded by itself: it has unsaved input)', [], 'note');
  events.close();
  location.reload();
}

/** The box over the page: a title and one line per problem, or nothing. */
function show(title, lines = [], tone = 'error') {
  box?.remove();
  box = undefined;
  if (title === undefined) return;
  box = document.createElement('div');
  box.id = tone === 'error' ? 'dev-problem' : 'dev-note';
  box.setAttribute('role', tone === 'error' ? 'alert' : 'status');
  box.style.cssText = `position:fixed;left:1rem;right:1rem;bottom:1rem;z-index:2147483647;max-height:50vh;overflow:auto;padding:1rem;border-radius:.5rem;background:${tone === 'error' ? '#3b0d0d' : '#0d2a3b'};color:#fff;font:14px/1.5 ui-monospace,monospace;box-shadow:0 4px 24px #0008;white-space:pre-wrap`;
  const heading = document.createElement('strong');
  heading.textContent = title;
  box.append(heading);
  for (const line of lines) {
    const item = document.createElement('div');
    item.textContent = line;
    box.append(item);
  }
  document.body.append(box);
}
