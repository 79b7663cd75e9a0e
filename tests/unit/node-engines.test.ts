// The Node versions package.json promises (`engines`) are ones every installed package accepts:
// `npm ci` on the oldest of them must not warn EBADENGINE (issue 31, point 14: @axe-core/playwright
// 4.14, since dropped for axe-core alone, wanted Node 22.12 while the project says 20.19).

import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

interface LockedPackage {
  version?: string;
  optional?: boolean;
  engines?: { node?: string };
}

const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as { packages: Record<string, LockedPackage> };

describe('Node engines', () => {
  const promised = manifest.engines.node;
  const oldest = semver.minVersion(promised)!.version;

  it('package.json names a lowest Node version', () => {
    expect(semver.validRange(promised)).not.toBeNull();
    expect(oldest).toMatch(/^20\./);
  });

  it('every package npm installs accepts the oldest Node package.json allows', () => {
    // An optional package that refuses this Node is left out by npm without a warning.
    const refusing = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && !p.optional && p.engines?.node !== undefined)
      .filter(([, p]) => !semver.satisfies(oldest, p.engines!.node!))
      .map(([path, p]) => `${path.replace(/^.*node_modules\//, '')}@${p.version} wants node ${p.engines!.node}`);
    expect(refusing).toEqual([]);
  });
});
