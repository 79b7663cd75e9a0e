#!/usr/bin/env node
// `npm run test:postgres`: the storage tests (tests/storage/) against a real PostgreSQL server, the
// fleet's back end, instead of PGlite. With TEST_DATABASE_URL set, that server is used as it is
// (its user must be allowed to create databases). Without it, a throw-away server is made for the
// run and removed after it: in a temp folder, on a free port of 127.0.0.1, reachable by no one
// else. `initdb` is found on the PATH or under /usr/lib/postgresql/*/bin; run as root, the script
// installs Debian's `postgresql` with apt-get when it is missing, and runs the server as the
// `postgres` user (PostgreSQL refuses to run as root).
//
//   npm run test:postgres                      # a throw-away server
//   TEST_DATABASE_URL=postgres://u:p@host/db npm run test:postgres

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const isRoot = process.getuid?.() === 0;

/** Runs the storage tests with `url` as TEST_DATABASE_URL; resolves with vitest's exit code. */
function runTests(url) {
  return new Promise((resolve) => {
    const child = spawn('npx', ['vitest', 'run', '--project', 'storage'], { stdio: 'inherit', env: { ...process.env, TEST_DATABASE_URL: url } });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** The folder holding initdb and pg_ctl, or null. */
function findPostgres() {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return join(onPath, '..');
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb')));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0], 'bin') : null;
}

function installPostgres() {
  if (!isRoot) {
    console.error('test:postgres: PostgreSQL (initdb) is not installed: install it (Debian: apt-get install postgresql), run this as root to have it installed, or set TEST_DATABASE_URL.');
    process.exit(1);
  }
  console.log('test:postgres: installing Debian\'s postgresql with apt-get');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'postgresql'], { stdio: 'inherit', env });
}

function freePort() {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Runs `bin/program args` as the user who may run PostgreSQL: `postgres` when this is root, else this user. */
function asServerUser(bin, program, args) {
  const command = [join(bin, program), ...args];
  if (!isRoot) return execFileSync(command[0], command.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
  const quoted = command.map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(' ');
  return execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', quoted], { stdio: ['ignore', 'pipe', 'inherit'] });
}

async function main() {
  const given = process.env['TEST_DATABASE_URL']?.trim();
  if (given) process.exit(await runTests(given));

  let bin = findPostgres();
  if (!bin) {
    installPostgres();
    bin = findPostgres();
    if (!bin) throw new Error('test:postgres: postgresql was installed but initdb is still not found');
  }
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-postgres-'));
  const data = join(dir, 'data');
  if (isRoot) {
    const ids = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, ids('-u'), ids('-g'));
  }
  const port = await freePort();
  let started = false;
  let code = 1;
  try {
    asServerUser(bin, 'initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
    // Only on 127.0.0.1, its socket in its own folder, and quick rather than safe: it is thrown away.
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    asServerUser(bin, 'pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
    started = true;
    console.log(`test:postgres: a throw-away PostgreSQL (${bin}) on 127.0.0.1:${port}`);
    code = await runTests(`postgres://postgres@127.0.0.1:${port}/postgres`);
  } finally {
    if (started) asServerUser(bin, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(code);
}

await main();
