// The kiosk's page loads none of the flow studio's code (issue 34): read from the production build
// (no browser needed), the files the kiosk's page loads, at once or later, share none with the
// studio's pages, and their source maps name no module of the studio, the editor or the layout.
// Measured when the studio came: the kiosk's JS was 710 564 bytes before it and 710 733 after
// (the preview's parts in App.svelte); the studio's pages are 533 KB of their own, and its worker 359 KB.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './support/test.ts';

const DIST = 'dist';

interface Chunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}

const manifest = (name: string): Record<string, Chunk> => JSON.parse(readFileSync(join(DIST, '.vite', name), 'utf8')) as Record<string, Chunk>;

/** Every file a page of `chunks` loads from its entry, at once or later (dynamic imports too). */
function filesOf(chunks: Record<string, Chunk>, entry: string): Set<string> {
  const seen = new Set<string>();
  const walk = (key: string) => {
    const chunk = chunks[key];
    if (!chunk || seen.has(chunk.file)) return;
    seen.add(chunk.file);
    for (const next of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) walk(next);
  };
  walk(entry);
  return seen;
}

/** The modules a built file was made from, as its source map names them. */
const sourcesOf = (file: string): string[] => (JSON.parse(readFileSync(join(DIST, `${file}.map`), 'utf8')) as { sources: string[] }).sources;

test("the kiosk's page shares no file with the studio and holds none of its code", () => {
  const kiosk = filesOf(manifest('manifest.json'), 'index.html');
  const studio = manifest('studio-manifest.json');
  const studioFiles = new Set([...filesOf(studio, 'studio/index.html'), ...filesOf(studio, 'studio/preview.html')]);
  expect(kiosk.size).toBeGreaterThan(0);
  expect(studioFiles.size).toBeGreaterThan(0);
  expect([...kiosk].filter((f) => studioFiles.has(f))).toEqual([]);
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  for (const file of studioFiles) expect(html).not.toContain(file);

  const studioCode = /src\/studio\/|@codemirror|@lezer|@dagrejs|schema\/vfdl\.schema\.json/;
  const kioskSources = [...kiosk].filter((f) => f.endsWith('.js')).flatMap(sourcesOf);
  expect(kioskSources.length).toBeGreaterThan(100);
  expect(kioskSources.filter((s) => studioCode.test(s))).toEqual([]);
  // The check can see such code where it is: the studio's own page is made of it.
  const studioSources = [...filesOf(studio, 'studio/index.html')].filter((f) => f.endsWith('.js')).flatMap(sourcesOf);
  expect(studioSources.filter((s) => studioCode.test(s)).length).toBeGreaterThan(20);
  const size = [...kiosk].filter((f) => f.endsWith('.js')).reduce((sum, f) => sum + readFileSync(join(DIST, f)).length, 0);
  console.log(`the kiosk's page loads ${kiosk.size} files, ${size} bytes of JS`);
});
