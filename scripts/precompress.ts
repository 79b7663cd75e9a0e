// A Vite plugin that writes a gzip copy (`name.gz`) beside each big file of the build under
// assets/ and vad/, for the kiosk's server to send to browsers that accept it (server/static-files.ts).
// The first visit then downloads about a third: onnxruntime's 14 MB wasm goes as 3.7 MB. Gzip,
// not brotli: brotli saves another megabyte but takes seconds per build on a small machine.

import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCallback, constants } from 'node:zlib';
import type { Plugin } from 'vite';

const gzip = promisify(gzipCallback);

/** The folders of dist/ whose files are compressed; the service worker and index.html stay as they are. */
const FOLDERS = ['assets', 'vad'];
/** Text and binary types that shrink; images are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|wasm|onnx|json|svg)$/;
/** Below this, the saving is not worth a second file. */
const MIN_BYTES = 1024;

/** Writes the `.gz` copies under `outDir`; resolves with how many were written. */
export async function precompress(outDir: string): Promise<number> {
  let written = 0;
  const jobs: Promise<void>[] = [];
  for (const folder of FOLDERS) {
    let names: string[];
    try {
      names = readdirSync(join(outDir, folder));
    } catch {
      continue; // no such folder in this build
    }
    for (const name of names) {
      const file = join(outDir, folder, name);
      if (!COMPRESSIBLE.test(name) || statSync(file).size < MIN_BYTES) continue;
      jobs.push(
        gzip(readFileSync(file), { level: constants.Z_BEST_COMPRESSION }).then((packed) => {
          // Only where it is smaller: the server prefers the .gz whenever it exists.
          if (packed.length >= statSync(file).size) return;
          writeFileSync(`${file}.gz`, packed);
          written++;
        }),
      );
    }
  }
  await Promise.all(jobs);
  return written;
}

export function precompressed(): Plugin {
  let outDir = 'dist';
  return {
    name: 'kiosk-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    writeBundle: {
      sequential: true,
      order: 'post',
      async handler() {
        await precompress(outDir);
      },
    },
  };
}
