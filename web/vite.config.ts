/// <reference types="vitest/config" />
// Build of the shop's web app. `raceshot serve` serves `dist/` and answers every unknown
// path with `index.html`; in development Vite proxies the API to a running server.
// `npm run build` then writes brotli and gzip copies of the text files (scripts/precompress.mjs).
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite';

const api = process.env.RACESHOT_API ?? 'http://127.0.0.1:8080';

/** Font files every page's first paint uses (src/main.tsx imports their faces), Thai first:
 * the shop's text is Thai by default. */
const FIRST_PAINT_FONTS = ['sarabun-thai-400-normal', 'sarabun-thai-700-normal'];

/** `<link rel="preload">` for the hashed files of `fonts`, so the browser fetches them with
 * the first script instead of after it has run, laid out the page and found the text
 * needs them. Build only: the development server serves the fonts from node_modules. */
function preloadFonts(fonts: string[]): Plugin {
  return {
    name: 'raceshot-preload-fonts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const files = Object.keys(ctx.bundle ?? {});
        return fonts.map((font): HtmlTagDescriptor => {
          const file = files.find((f) => f.startsWith(`assets/${font}-`) && f.endsWith('.woff2'));
          if (file === undefined) throw new Error(`no built font file for ${font}: is its face still imported?`);
          return {
            tag: 'link',
            attrs: { rel: 'preload', as: 'font', type: 'font/woff2', href: `/${file}`, crossorigin: true },
            injectTo: 'head',
          };
        });
      },
    },
  };
}

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
  plugins: [react(), bootScript(), preloadFonts(FIRST_PAINT_FONTS)],
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
