/**
 * Loaded with `--import` into a child server: appends the URL of every module the process loads
 * to the file named by MODULE_LOG, one per line, as it loads it.
 */
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const log = process.env.MODULE_LOG;
if (log) {
  registerHooks({
    load(url, context, nextLoad) {
      appendFileSync(log, `${url}\n`);
      return nextLoad(url, context);
    },
  });
}
