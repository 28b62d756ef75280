import { defineConfig } from 'vitest/config';

// Browser tests: real headless Chromium (Debian package) against the real server.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    globalSetup: ['tests/helpers/server-bundle-setup.ts'],
  },
});
