//! Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside every text
//! file of `dist/` after `vite build`. `raceshot serve` sends the copy the browser accepts,
//! so compression costs nothing per request and can use the slowest, smallest settings.
//! Originals stay: a client that accepts neither still gets the file. Formats that are
//! already compressed (fonts, images) are left alone, as are source maps.

import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = resolve(process.argv[2] ?? join(import.meta.dirname, '../dist'));
const TEXT = /\.(?:js|mjs|css|svg|json|txt|html|xml|webmanifest)$/;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile() && TEXT.test(entry.name)) yield path;
  }
}

let count = 0;
let raw = 0;
let br = 0;
for (const path of files(dist)) {
  const data = readFileSync(path);
  const brotli = brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  writeFileSync(`${path}.br`, brotli);
  writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
  count += 1;
  raw += statSync(path).size;
  br += brotli.length;
}
console.log(`precompress: ${count} files in ${relative(process.cwd(), dist) || '.'}, ${raw} B → ${br} B brotli`);
