// The kiosk's layout sizes itself by the screen the visitor sees: on an iPad, 100vh is the height
// with Safari's bars hidden, so a page of 100vh scrolls under them and a control at its foot is
// out of reach; 100dvh follows the bars. Every vh in the stylesheets is therefore only a
// fallback for Safari before 15.4 (no dvh), with the same property in dvh right after it.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every stylesheet and component style of the page. */
function styleSources(dir = 'src'): { file: string; css: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return styleSources(path);
    if (entry.name.endsWith('.css')) return [{ file: path, css: readFileSync(path, 'utf8') }];
    if (entry.name.endsWith('.svelte')) return [...readFileSync(path, 'utf8').matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => ({ file: path, css: m[1]! }));
    return [];
  });
}

/** The declarations using plain vh that are not followed, in their rule, by the same property in dvh. */
function bareViewportHeights(css: string): string[] {
  const bare: string[] = [];
  for (const rule of css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const declarations = rule[2]!.split(';').map((d) => d.trim()).filter(Boolean);
    declarations.forEach((d, i) => {
      if (!/(^|[^a-z])\d*\.?\d+vh\b/.test(d)) return;
      const property = d.split(':')[0]!.trim();
      const followed = declarations.slice(i + 1).some((later) => later.startsWith(`${property}:`) && /\d\s*dvh\b/.test(later) && !/(^|[^a-z])\d*\.?\d+vh\b/.test(later));
      if (!followed) bare.push(`${rule[1]!.trim()} { ${d} }`);
    });
  }
  return bare;
}

describe('viewport heights', () => {
  it('finds a vh with no dvh after it, and accepts one with', () => {
    expect(bareViewportHeights('body { min-height: 100vh; }')).toEqual(['body { min-height: 100vh }']);
    expect(bareViewportHeights('.a { max-height: 30vh; max-height: 30dvh; }')).toEqual([]);
    expect(bareViewportHeights('.a { height: calc(100vh - 2rem); width: 10vw; }')).toEqual(['.a { height: calc(100vh - 2rem) }']);
    expect(bareViewportHeights('.a { height: 100dvh; }')).toEqual([]);
  });

  it('the kiosk uses the dynamic viewport height everywhere, plain vh only as a fallback', () => {
    const sources = styleSources();
    expect(sources.map((s) => s.file)).toContain('src/ui/kiosk.css');
    expect(sources.flatMap(({ file, css }) => bareViewportHeights(css).map((d) => `${file}: ${d}`))).toEqual([]);
  });
});
