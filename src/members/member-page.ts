/**
 * The start of every member page (/account/…): read its data from the session (through
 * `Astro.locals.member`, functions/site/site.ts), or say the database cannot be reached (the
 * page shows a notice; the rest of the site goes on), or send the visitor to sign in and back.
 */

/** A member page's data; `failed`: the accounts database cannot be reached now. */
export type MemberPageData<T> = { data: T; failed: false } | { data: undefined; failed: true };

/**
 * @returns the data, or `failed`, or undefined without a session (redirect to `signInPath(page)`)
 * @example const page = await memberPageData(Astro.locals.member?.dashboard); if (!page) return Astro.redirect(signInPath('/account/'), 303);
 */
export async function memberPageData<T>(read: (() => Promise<T | undefined>) | undefined): Promise<MemberPageData<T> | undefined> {
  try {
    const data = await read?.();
    return data === undefined ? undefined : { data, failed: false };
  } catch {
    return { data: undefined, failed: true };
  }
}

/** The sign-in page, coming back to `page` after. */
export function signInPath(page: string): string {
  return `/login?next=${encodeURIComponent(page)}`;
}
