/**
 * The settings of a command run by an operator (`npm start`, `npm run serve`, `build`,
 * `check`, `admin`): the environment, plus an optional `.env` file in the working directory for
 * what the environment does not set (the environment wins). A wrong value ends the command with
 * the variable's name and what was expected, not a stack trace.
 */
import { existsSync } from 'node:fs';
import { ConfigError, loadConfig, type Config } from '../functions/config.ts';

export function settings(): Config {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`${error.message}\n(see docs/deploying.md for every setting)`);
    process.exit(2);
  }
}
