// npm run check:readme (scripts/check-readme.mjs) finds a relative link that leads nowhere, a
// #part no heading makes and an npm script package.json lacks, and passes what resolves; links in
// code and addresses are not files to look for.

import { describe, expect, it } from 'vitest';
import { anchorsOf, checkDocuments, headingAnchor, linksOf, scriptsNamed } from '../../scripts/check-readme.mjs';

const TREE: Record<string, 'file' | 'folder'> = {
  'README.md': 'file',
  docs: 'folder',
  'docs/vfdl.md': 'file',
  'docs/screenshots/idle.png': 'file',
  flows: 'folder',
};
const TEXTS: Record<string, string> = {
  'docs/vfdl.md': '# VFDL: the flow language\n\n## Conversation tests\n\n### `on_action_done` and `on_action_failed`\n\n## Languages\n\n## Languages\n',
};
const exists = (path: string) => TREE[path] ?? null;
const textOf = (path: string) => TEXTS[path] ?? '';
const SCRIPTS = ['start', 'test', 'test:unit', 'check:sizes', 'serve'];

function check(readme: string, others: Record<string, string> = {}): string[] {
  const files = [{ path: 'README.md', text: readme }, ...Object.entries(others).map(([path, text]) => ({ path, text }))];
  return checkDocuments(files, SCRIPTS, exists, (p: string) => others[p] ?? textOf(p));
}

describe('check:readme', () => {
  it('passes links and images that resolve, with parts that a heading makes', () => {
    const readme = [
      'Read [the language](docs/vfdl.md) and [its tests](docs/vfdl.md#conversation-tests).',
      '![Idle](docs/screenshots/idle.png) and [the flows](flows/), [home](https://example.com/x) <http://127.0.0.1:4173>',
      'Then `npm run test:unit`, npm test and npm start; `npm run serve`: the server.',
    ].join('\n');
    expect(check(readme)).toEqual([]);
  });

  it('names each link that leads nowhere, with its line', () => {
    const readme = 'intro\nSee [SPEC §8](../shared/SPEC.md) and ![Operator](docs/screenshots/operator.png).\n[gone](docs/gone.md#x)';
    expect(check(readme)).toEqual([
      'README.md:2: the link ../shared/SPEC.md leads out of the repository',
      'README.md:2: the link docs/screenshots/operator.png leads nowhere: there is no docs/screenshots/operator.png',
      'README.md:3: the link docs/gone.md#x leads nowhere: there is no docs/gone.md',
    ]);
  });

  it('names a #part that no heading of the file makes, in the README and in the docs', () => {
    expect(check('[x](docs/vfdl.md#conversation-test)')).toEqual(['README.md:1: the link docs/vfdl.md#conversation-test names a part that docs/vfdl.md has no heading for']);
    const doc = '# Title\n\nSee [Languages](#languages) and [actions](#on_action_done-and-on_action_failed) and [x](#nowhere).\n\n## Languages\n\n### `on_action_done` and `on_action_failed`\n';
    expect(check('', { 'docs/vfdl.md': doc })).toEqual(['docs/vfdl.md:3: the link #nowhere names a part that docs/vfdl.md has no heading for']);
  });

  it('names each npm script the README or a page of the docs names and package.json lacks', () => {
    expect(check('', { 'docs/testing.md': '# Testing\n\n`npm run test:unit`, then `npm run test:gone`.\n' })).toEqual(['docs/testing.md:3: npm run test:gone names no script of package.json']);
    expect(check('Run `npm run check:readme` first.\n\n```sh\nnpm run bench -- --check\nnpm run --silent test:unit\n```')).toEqual([
      'README.md:1: npm run check:readme names no script of package.json',
      'README.md:4: npm run bench names no script of package.json',
    ]);
  });

  it('leaves links inside code alone, but reads the commands there', () => {
    expect(linksOf('`[a](nowhere.md)`\n```md\n[b](nowhere.md)\n```\n[c](here.md)')).toEqual([{ target: 'here.md', line: 5 }]);
    expect(scriptsNamed('```sh\nnpm ci && npm test\n```\nnpm run serve: the server')).toEqual([
      { script: 'test', line: 2 },
      { script: 'serve', line: 4 },
    ]);
  });

  it('makes anchors as GitHub does', () => {
    expect(headingAnchor('Voice: speech recognition, the model and the kiosk\'s voice')).toBe('voice-speech-recognition-the-model-and-the-kiosks-voice');
    expect(headingAnchor('`on_action_done` and `on_action_failed`')).toBe('on_action_done-and-on_action_failed');
    expect([...anchorsOf(TEXTS['docs/vfdl.md']!)]).toEqual(['vfdl-the-flow-language', 'conversation-tests', 'on_action_done-and-on_action_failed', 'languages', 'languages-1']);
  });
});
