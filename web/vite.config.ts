/// <reference types="vitest/config" />
// Build of the shop's web app. `raceshot serve` serves `dist/` and answers every unknown
// path with `index.html`; in development Vite proxies the API to a running server.
// `npm run build` then writes brotli and gzip copies of the text files (scripts/precompress.mjs).
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const api = process.env.RACESHOT_API ?? 'http://127.0.0.1:8080';

/** `<script async>` for src/boot.ts, built as its own entry: fetched beside the app's entry
 * and run as soon as it arrives, ahead of the much larger app. */
function bootScript(): Plugin {
  return {
    name: 'raceshot-boot-script',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const boot = Object.values(ctx.bundle ?? {}).find((c) => c.type === 'chunk' && c.isEntry && c.name === 'boot');
        if (boot === undefined) throw new Error('no boot chunk: is src/boot.ts still an input?');
        // After the embedded answers it reads (`head` appends), before the preloads.
        return [
          {
            tag: 'script',
            attrs: { type: 'module', async: true, crossorigin: true, src: `/${boot.fileName}` },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), bootScript()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    target: 'es2022',
    // Reported in docs/benchmarks.md: the initial JavaScript must stay under 200 KB gzip.
    chunkSizeWarningLimit: 400,
    rollupOptions: {
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        boot: fileURLToPath(new URL('./src/boot.ts', import.meta.url)),
      },
    },
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
