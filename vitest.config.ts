import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Servers started as child processes run from source here (tests/integration/server-bundle.test.ts
    // runs one from a bundle of its own); the browser and reliability suites run the bundle.
    env: { SERVER_BUNDLE: 'off' },
  },
});
