/// <reference types="vitest/config" />
// Build of the shop's web app. `raceshot serve` serves `dist/` and answers every unknown
// path with `index.html`; in development Vite proxies the API to a running server.
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.RACESHOT_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    target: 'es2022',
    // Reported in docs/benchmarks.md: the initial JavaScript must stay under 200 KB gzip.
    chunkSizeWarningLimit: 400,
  },
  server: {
    proxy: Object.fromEntries(
      ['/v1', '/v2', '/v3', '/api', '/media', '/sandbox'].map((p) => [p, api]),
    ),
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
});
