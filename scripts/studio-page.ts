// The flow studio's pages (studio/index.html, studio/preview.html) are built by a build of their
// own, run by the kiosk's build once its files are written and before its service worker is made
// (so the worker precaches them too): the kiosk's page shares no chunk with the studio and loads
// not a byte more for it. The studio is installable as an app of its own: its page links its own
// web manifest (scope /studio/), written here; the preview (the kiosk inside the studio) links none.

import { svelte } from '@sveltejs/vite-plugin-svelte';
import { build, type InlineConfig, type Plugin, type UserConfig } from 'vite';
import { STUDIO_MANIFEST, STUDIO_MANIFEST_PATH } from '../src/pwa/pwa-options.ts';
import { checkedFlows } from './checked-flows.ts';

/** The studio's page links the studio's manifest. */
function studioManifest(): Plugin {
  return {
    name: 'voice-kiosk:studio-manifest',
    transformIndexHtml(html, ctx) {
      return ctx.path === '/studio/index.html' ? html.replace('</head>', `  <link rel="manifest" href="${STUDIO_MANIFEST_PATH}">\n  </head>`) : html;
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: STUDIO_MANIFEST_PATH.slice(1), source: `${JSON.stringify(STUDIO_MANIFEST, null, 2)}\n` });
    },
  };
}

/** The studio's build: its two pages into `outDir` beside the kiosk's files, which it leaves alone. */
export function studioBuildConfig(root: string, outDir: string, base: Pick<UserConfig, 'resolve'>): InlineConfig {
  return {
    configFile: false,
    root,
    logLevel: 'warn',
    // The studio's preview runs the kiosk, and with it the bundled flows checked at build time.
    plugins: [svelte(), checkedFlows(), studioManifest()],
    resolve: base.resolve,
    worker: { format: 'es' },
    build: {
      target: 'es2022',
      sourcemap: true,
      outDir,
      emptyOutDir: false,
      copyPublicDir: false,
      // Which files each studio page loads (tests/unit/studio-bundle.test.ts reads it, beside the kiosk's).
      manifest: '.vite/studio-manifest.json',
      chunkSizeWarningLimit: 2048,
      rolldownOptions: {
        input: { studio: 'studio/index.html', preview: 'studio/preview.html' },
        // The kiosk fetches the flow reader as a chunk of its own (flow-files.ts); the studio's
        // preview reads every draft with it, so here it is in the page from the start, as meant.
        onLog(level, log, handler) {
          if (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT' && log.message.includes('language/load-flow.ts')) return;
          handler(level, log);
        },
      },
    },
  };
}

/** A plugin of the kiosk's build that builds the studio once the kiosk's files are written. */
export function studioBuild(base: Pick<UserConfig, 'resolve'>): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'voice-kiosk:studio-build',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = config.build.outDir;
    },
    // Before the gzip copies are made (precompress.ts) and the service worker's list (closeBundle).
    writeBundle: {
      sequential: true,
      order: 'pre',
      async handler() {
        await build(studioBuildConfig(root, outDir, base));
      },
    },
  };
}
