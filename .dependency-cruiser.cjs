// Which part of the kiosk may import which: the layers of src/, the server and the vfdl command,
// as rules that `npm run check:imports` checks (dependency-cruiser reads every import of the
// .ts, .js and .svelte files under src/, server/ and bin/, type-only ones too). Tests, bench and
// scripts are outside these rules: they may reach into any layer.
//
// A rule names the importing files (`from`) and what they must not import (`to`); paths are
// regular expressions on the path from the repository's root, npm packages are under
// node_modules/, and Node's own modules (`node:fs`) by their bare names (`fs`), of the dependency
// type `core`. A type-only import in a .svelte file is not seen: the Svelte compiler, which reads
// those files for dependency-cruiser, drops it with the types.

/**
 * The files that put the kiosk together from its parts, so the only ones outside src/adapters/ that
 * may name an adapter; the flow studio's preview (the kiosk inside the studio) is put together too.
 */
const COMPOSITION_ROOT = ['^src/main\\.ts$', '^src/ui/App\\.svelte$', '^src/ui/services\\.svelte\\.ts$', '^src/studio/preview/main\\.ts$'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Two modules that import each other (directly or round a longer loop) are one module in two files: neither can be ' +
        'read, tested or loaded without the other, and the order in which they run their top level is an accident. Move what ' +
        'both need into a third module, or pass it in.',
      from: { path: '^(src|server|bin)/' },
      to: { circular: true },
    },
    {
      name: 'language-stands-alone',
      severity: 'error',
      comment:
        'The flow language (text to a checked Flow, its diagnostics, schema and graph) is what `vfdl check` and the schema ' +
        'use without running anything; the runtime is built on it, never the other way round. Move what the language needs ' +
        'into src/engine/language/.',
      from: { path: '^src/engine/language/' },
      to: { path: '^src/engine/runtime/' },
    },
    {
      name: 'engine-is-pure',
      severity: 'error',
      comment:
        'The engine runs the same in the browser, in Node (vfdl, the tests) and in the server: it imports only itself, the ' +
        "ports, xstate and yaml. No UI, adapter, voice, PWA, CLI or server module, no svelte, vad-web, onnxruntime-web, " +
        "workbox-window or openai, and none of Node's own modules (node:fs and the like), which a browser does not have.",
      from: { path: '^src/engine/' },
      to: { pathNot: ['^src/engine/', '^src/ports/', '^node_modules/(xstate|yaml)/'] },
    },
    {
      name: 'engine-takes-port-types-only',
      severity: 'error',
      comment:
        'The engine performs nothing itself (no timers, network or real clock): it is handed a Clock or Timers and may name ' +
        'their types, but not import a port\'s helpers, such as browserTimers, which do.',
      from: { path: '^src/engine/' },
      to: { path: '^src/ports/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'adapters-only-through-ports',
      severity: 'error',
      comment:
        'An adapter is the only place a vendor or a wire format appears (vad-web, OpenAI-compatible HTTP, browser speech, the ' +
        "offline agent, the kiosk server's API, flow files). The rest of the kiosk uses the port it implements (src/ports/) " +
        'and is handed the adapter by the composition root (src/main.ts, src/ui/App.svelte, src/ui/services.svelte.ts), so ' +
        'an adapter can be swapped, or faked in a test, in one place.',
      from: { pathNot: ['^src/adapters/', ...COMPOSITION_ROOT] },
      to: { path: '^src/adapters/' },
    },
    {
      name: 'ports-are-interfaces',
      severity: 'error',
      comment:
        'A port says what the kiosk needs of the outside (interfaces and tiny helpers); it may name engine types, but knows ' +
        'nothing of who implements it (adapters) or who uses it (UI, voice, PWA).',
      from: { path: '^src/ports/' },
      to: { path: '^src/(adapters|ui|voice|pwa)/' },
    },
    {
      name: 'server-stays-server',
      severity: 'error',
      comment:
        "The kiosk's server runs in Node: it may share the engine and the ports' types with the page, but not the page's " +
        'own parts (UI, voice, PWA) or the adapters that need a browser (browser speech, vad-web).',
      from: { path: '^server/' },
      to: { path: '^src/(ui|voice|pwa|adapters/browser|adapters/vad-web)/' },
    },
    {
      name: 'voice-without-ui',
      severity: 'error',
      comment:
        'The voice loop (listening, turn-taking, speaking) is driven by the UI and reports to it through its own types and ' +
        'callbacks; importing the UI back would tie it to one screen and make it untestable without Svelte.',
      from: { path: '^src/voice/' },
      to: { path: '^src/ui/' },
    },
    {
      name: 'kiosk-without-studio',
      severity: 'error',
      comment:
        "The flow studio (src/studio/) is pages of its own: the kiosk's page loads none of its code. The kiosk's parts may " +
        'not import it; the studio (and its preview, the kiosk inside it) may import theirs.',
      from: { path: '^src/', pathNot: '^src/studio/' },
      to: { path: '^src/studio/' },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment:
        'A file that imports nothing and that nothing imports is dead, or is reached some way these rules cannot see. ' +
        'Delete it, or import it from where it is used.',
      from: { orphan: true },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // type-only imports (`import type`) are dependencies too
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // how the bundler and Node find a package (vite, tsx/esm/api: by their `exports`)
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types', 'svelte', 'browser'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.svelte', '.d.ts', '.json'],
    },
  },
};
