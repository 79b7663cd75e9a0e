// `vfdl check` answers any file in its own words: binary bytes, a 5 MB file, nesting far past the
// limit, YAML aliases that loop or multiply, names that are Object members. Never a stack trace;
// and an error vfdl did not expect is one line, a request to report it, and exit code 3.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { guarded, INTERNAL_ERROR } from '../../src/cli/main.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'vfdl-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bigMapping(chars: number): string {
  const lines = ['id: big', 'states:', '  a: {}', 'variables:'];
  let size = 0;
  for (let i = 0; size < chars; i++) {
    const line = `  v${i}: { type: string }`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

const laughs = ['id: laughs', 'states: { a: {} }', 'a: &a [x, x, x, x, x, x, x, x, x, x]'];
for (const [name, prev] of [['b', 'a'], ['c', 'b'], ['d', 'c'], ['e', 'd'], ['f', 'e'], ['g', 'f']]) {
  laughs.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(', ')}]`);
}

/** File name, its content, and a diagnostic code it must get. */
const HOSTILE: [string, string | Buffer, string][] = [
  ['binary.yaml', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256)), 'error'],
  ['five-mb.yaml', bigMapping(5_000_000), 'too-large'],
  ['deep-flow.yaml', `id: d\nstates:\n  a:\n    ui: { artifact_type: card, params: { x: ${'['.repeat(20_000)}${']'.repeat(20_000)} } }\n`, 'too-deep'],
  ['deep-block.yaml', `id: d\nstates:\n  a:\n    description: x\n${Array.from({ length: 300 }, (_, i) => `${'  '.repeat(i + 2)}k${i}:`).join('\n')} 1\n`, 'too-deep'],
  ['alias-cycle.yaml', 'id: c\nstates:\n  a:\n    ui: { artifact_type: card, params: &p { again: *p } }\n', 'too-deep'],
  ['alias-bomb.yaml', laughs.join('\n'), 'yaml-syntax'],
  ['object-members.yaml', 'id: m\n__proto__: { x: 1 }\nconstructor: 1\nstates:\n  toString:\n    transitions: { on_ui_event: { valueOf: hasOwnProperty, __proto__: __end__ } }\n', 'unknown-key'],
  ['nul-and-controls.yaml', `id: n\nstates:\n  a: { description: "\u0000\u0001\u001b[31m" }\n\u0000`, 'yaml-syntax'],
  ['empty.yaml', '', 'not-a-flow'],
];

describe('vfdl check on hostile files', () => {
  it('answers each with diagnostics, and never a stack trace', () => {
    const files = HOSTILE.map(([name, content]) => {
      const file = join(dir, name);
      writeFileSync(file, content);
      return file;
    });
    let stdout = '';
    let stderr = '';
    let status = 0;
    try {
      stdout = execFileSync(process.execPath, [join(ROOT, 'bin/vfdl.js'), 'check', ...files], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      ({ stdout, stderr, status } = e as { stdout: string; stderr: string; status: number });
    }
    expect(stderr).toBe('');
    expect(status).toBe(1);
    expect(stdout).not.toMatch(/^\s+at /m);
    expect(stdout).not.toContain('internal error');
    expect(stdout).not.toMatch(/call stack/i);
    HOSTILE.forEach(([name, , code], i) => {
      const lines = stdout.split('\n').filter((l) => l.startsWith(`${files[i]}:`));
      expect([name, lines.length > 0 && lines.every((l) => / error: .* \[[a-z-]+\]$/.test(l))]).toEqual([name, true]);
      if (code !== 'error') expect([name, lines.some((l) => l.endsWith(`[${code}]`))]).toEqual([name, true]);
    });
    expect(stdout).toContain(`${HOSTILE.length} file(s) checked`);
  });
});

describe('an error vfdl does not expect', () => {
  it('is one line and a request to report it, with exit code 3', async () => {
    const lines: string[] = [];
    const code = await guarded(() => {
      throw new TypeError("Cannot read properties of undefined (reading 'parameters')\n    at toolSpec (catalog.ts:1:1)");
    }, (l) => lines.push(l));
    expect(code).toBe(INTERNAL_ERROR);
    expect(INTERNAL_ERROR).toBe(3);
    expect(lines).toEqual([
      "vfdl: internal error: Cannot read properties of undefined (reading 'parameters')",
      'vfdl: this is a bug in vfdl, not in your files; please report it, with the command and the file that caused it',
    ]);
  });

  it('passes a command\'s own exit code through', async () => {
    expect(await guarded(() => 1, () => {})).toBe(1);
    expect(await guarded(async () => 2, () => {})).toBe(2);
  });
});

describe('a reader that stops early', () => {
  it('ends vfdl quietly: `vfdl test --json | head -1` prints no EPIPE stack trace', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [join(ROOT, 'bin/vfdl.js'), 'test', '--json', join(ROOT, 'tests/conversations')], { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Read the first chunk, then close the pipe as `head` does.
    await new Promise<void>((done) => child.stdout.once('data', () => done()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
