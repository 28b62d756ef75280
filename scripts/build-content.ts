/**
 * `npm run build:content`: validate the content and write the prebuilt indexes to `generated/`.
 * Exits non-zero, with one line per problem, when the content has errors.
 */
import { settings } from './_settings.ts';
import { buildContent } from './_build-steps.ts';

const config = settings();
const ok = await buildContent(config);
if (!ok) process.exit(1);
