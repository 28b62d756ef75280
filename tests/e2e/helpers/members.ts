/**
 * A member's way in, as a person takes it in the browser: sign up on /signup, open the
 * confirmation link of the mail (the outbox, or a real SMTP server), press its button, and sign
 * in on /login.
 */
import type { Page } from 'playwright-core';
import { e2e } from './context.ts';
import { mailedLink, outbox, type Mailbox } from './mail.ts';

export interface MemberLogin {
  email: string;
  password: string;
}

/** Fill and send the sign-in form of the page open (/login). */
export async function signIn(page: Page, { email, password }: MemberLogin): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Sign up, confirm the address from the mailed link, and sign in: the browser ends on the member's landing page, /account/. */
export async function signUpAndSignIn(page: Page, member: MemberLogin, mailbox: Mailbox = outbox): Promise<void> {
  await page.goto(e2e().url('/signup'));
  await page.getByLabel('E-mail').fill(member.email);
  await page.getByLabel('Password').fill(member.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/signup\?sent=1$/);
  await page.goto(await mailedLink(member.email, 'verify', mailbox));
  await page.getByRole('button', { name: 'Confirm my address' }).click();
  await page.waitForURL(/\/login\?verified=1$/);
  await signIn(page, member);
  await page.waitForURL((url) => url.pathname === '/account/');
}
