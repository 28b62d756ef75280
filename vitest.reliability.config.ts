import { defineConfig } from 'vitest/config';

// Fault and load tests: several server processes, a real redis-server, a bare git remote,
// SIGKILL, full and read-only file systems, a fuzz of every route and a 60-second load.
export default defineConfig({
  test: {
    include: ['tests/reliability/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    globalSetup: ['tests/helpers/server-bundle-setup.ts'],
  },
});
