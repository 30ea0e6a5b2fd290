// End-to-end suite: a real `raceshot serve` (demo shop, SANDBOX gateway) driven through
// Debian's Chromium by playwright-core. Run by `make test` after the web app is built.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['./e2e/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    fileParallelism: false,
    sequence: { concurrent: false },
  },
});
