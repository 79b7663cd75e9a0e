// The kiosk's app icons (public/icons/*.png): one SVG drawing, a white speech bubble holding a
// microphone on the brand colour, rendered to PNG by Chromium (there is no image library here).
// "any" icons are a rounded square with clear corners; "maskable" ones fill the square and keep
// the drawing inside the central circle (80 % of the width) that every mask shape leaves whole.
// The PNGs are committed; run again after changing the drawing:
//   npx tsx scripts/make-icons.ts

import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS } from '../tests/e2e/support/chromium.ts';

const BRAND = '#12355b';
const outDir = new URL('../public/icons/', import.meta.url);

/** The drawing on a 100×100 grid: the bubble, its tail, and a microphone on its stand. */
const MARK = `
  <path fill="#fff" d="M23 8h54a18 18 0 0 1 18 18v28a18 18 0 0 1-18 18H44L22 92l2-20h-1A18 18 0 0 1 5 54V26A18 18 0 0 1 23 8z"/>
  <rect x="41" y="15" width="18" height="33" rx="9" fill="${BRAND}"/>
  <g fill="none" stroke="${BRAND}" stroke-width="4.5" stroke-linecap="round">
    <path d="M32 38a18 18 0 0 0 36 0"/>
    <path d="M50 56v8M41 64h18"/>
  </g>`;

/**
 * The icon as SVG on a 512 grid. `maskable`: a full square, the mark within the safe circle
 * (radius 205: a 280 px mark has a half-diagonal of 198). Otherwise a rounded square, mark larger.
 */
export function iconSvg(maskable: boolean): string {
  const mark = maskable ? 280 : 340;
  const at = (512 - mark) / 2;
  const back = maskable ? `<rect width="512" height="512" fill="${BRAND}"/>` : `<rect width="512" height="512" rx="112" fill="${BRAND}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">${back}<g transform="translate(${at} ${at + mark * 0.02}) scale(${mark / 100})">${MARK}</g></svg>`;
}

const ICONS: { file: string; size: number; maskable: boolean }[] = [
  { file: 'icon-192.png', size: 192, maskable: false },
  { file: 'icon-512.png', size: 512, maskable: false },
  { file: 'maskable-192.png', size: 192, maskable: true },
  { file: 'maskable-512.png', size: 512, maskable: true },
  // iOS rounds the corners itself and shows transparency as black: the full square suits it.
  { file: 'apple-touch-icon-180.png', size: 180, maskable: true },
];

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    for (const icon of ICONS) {
      const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size }, deviceScaleFactor: 1 });
      const svg = iconSvg(icon.maskable).replace('<svg ', `<svg width="${icon.size}" height="${icon.size}" `);
      await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
      await page.screenshot({ path: fileURLToPath(new URL(icon.file, outDir)), omitBackground: true });
      await page.close();
      console.log(`public/icons/${icon.file} (${icon.size}×${icon.size}${icon.maskable ? ', maskable' : ''})`);
    }
  } finally {
    await browser.close();
  }
}

await main();
