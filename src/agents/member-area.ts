/**
 * What the discovery documents (llms.txt, the agent card, the OpenAPI description, the API
 * catalog, the OAuth metadata's note) say about the member area, in one wording: it is for
 * people in a browser, with same-origin, cookie-only sessions and no credential for agents, who
 * send their person to the sign-in page instead (SPEC "Authentication" 4).
 */
import { absolute, paths } from './site-urls.ts';

/**
 * The member area in two sentences, with the site's sign-in and sign-up addresses.
 * @example memberAreaNote('https://deals.example').includes('https://deals.example/login') // true
 */
export function memberAreaNote(baseUrl: string): string {
  return (
    'The member area (saved deals and startups, the dashboard, following the deals one submitted) is for people in a browser: same-origin, cookie-only sessions (an HTTP-only cookie set by signing in on the site) and no credential for agents, no API key, token or OAuth flow. ' +
    `For a member-only action, send your person to ${absolute(baseUrl, paths.login)} (new members: ${absolute(baseUrl, paths.signup)}).`
  );
}
