// Whether anyone is using the kiosk: the one question an update (and later the operator's tools)
// asks before changing what is on screen.

/**
 * Given the Kiosk's phase (src/ui/kiosk.svelte.ts): true on the idle screen, and on the operator
 * screen of a flow that did not load (no visitor can be there, and a new version may be the
 * fix); never while loading, during a visit or on its end screen.
 */
export function kioskIsQuiet(phase: string): boolean {
  return phase === 'idle' || phase === 'invalid';
}
