/**
 * The Logo panel of an admin record page (issue 16, item 5), deal or startup: the image the
 * site shows now (or a note that it draws a monogram; GET /api/v1/admin/<kind>s/logo), a file
 * picker that uploads at once (PUT, the file itself as the body) and, when the record has a
 * logo file, a button that removes it behind a confirmation. A file too large or of another
 * type is refused here before it is sent; the server checks it again from its bytes. Markup: src/components/admin/LogoPanel.astro.
 */
import { LOGO_UPLOAD_TYPES, MAX_LOGO_BYTES } from '../logos/logo-upload.ts';
import type { LogoState } from '../schemas/answers.ts';
import { api, failureText, say } from './api.ts';

export interface LogoOptions {
  kind: 'deals' | 'startups';
  /** The record's slug once it is saved (`null` for a new one: no logo yet). */
  slug: () => string | null;
}

/**
 * Run `panel`; `show()` (again after a save or rename) shows the record's logo as served now.
 * @example const logo = logoPanel(section, { kind: 'deals', slug: () => editing }); logo.show();
 */
export function logoPanel(panel: HTMLElement, options: LogoOptions): { show: () => void } {
  const image = panel.querySelector<HTMLImageElement>('[data-logo-image]')!;
  const none = panel.querySelector<HTMLElement>('[data-logo-none]')!;
  const file = panel.querySelector<HTMLInputElement>('[data-logo-file]')!;
  const error = panel.querySelector<HTMLElement>('[data-logo-error]')!;
  const remove = panel.querySelector<HTMLButtonElement>('[data-logo-remove]')!;
  const row = panel.querySelector<HTMLElement>('.logo-row')!;
  const note = panel.querySelector<HTMLElement>('[data-logo-new]')!;
  const endpoint = (slug: string) => `/api/v1/admin/${options.kind}/logo?slug=${encodeURIComponent(slug)}`;

  const problem = (text: string) => {
    error.textContent = text;
    error.hidden = text === '';
  };

  function show(): void {
    const slug = options.slug();
    panel.hidden = false;
    row.hidden = slug === null;
    note.hidden = slug !== null;
    if (slug === null) return;
    // The image as the site shows it now (a draft's too), and whether there is a file to remove (not for a `logoUrl` image).
    api<LogoState>('GET', endpoint(slug))
      .then((state) => {
        image.hidden = state.image === null;
        if (state.image !== null) image.src = state.image;
        none.hidden = state.image !== null;
        remove.hidden = state.file === null;
      })
      .catch((failure: unknown) => problem(failureText(failure)));
  }

  file.addEventListener('change', () => {
    const slug = options.slug();
    const chosen = file.files?.[0];
    problem('');
    if (!slug || !chosen) return;
    if (chosen.size > MAX_LOGO_BYTES) return problem(`${chosen.name} is ${(chosen.size / 1024 / 1024).toFixed(1)} MB: a logo may be at most 1 MB.`);
    if (chosen.type && !(LOGO_UPLOAD_TYPES as readonly string[]).includes(chosen.type)) return problem(`${chosen.name} is not a PNG, JPEG, WebP, GIF, SVG or AVIF image.`);
    file.disabled = true;
    api('PUT', endpoint(slug), chosen)
      .then(() => {
        say('Logo saved. The site shows it now.');
        show();
      })
      .catch((failure: unknown) => problem(failureText(failure)))
      .finally(() => {
        file.disabled = false;
        file.value = '';
      });
  });

  remove.addEventListener('click', () => {
    const slug = options.slug();
    if (!slug || !confirm('Remove the logo? The site draws a monogram of the name instead (after the next build, the image of the Logo URL, if there is one).')) return;
    api('DELETE', endpoint(slug))
      .then(() => {
        say('Logo removed.');
        show();
      })
      .catch((failure: unknown) => problem(failureText(failure)));
  });

  return { show };
}
