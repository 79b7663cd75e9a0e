// The `vfdl` command line: dispatches to check, test and graph. Returns the exit code. Whatever a
// file holds, vfdl answers in its own words: an error it did not expect is a bug, said in one line.

import { runCheck } from './check.ts';
import { runGraph } from './graph.ts';
import { runTests } from './test-command.ts';

const USAGE = `usage: vfdl <command> [options] FILE...

commands:
  check FILE...     validate flow files (a folder: its .yaml files but *.test.yaml); exit 1 on any error
  test SCRIPT...    run conversation tests (a folder: its *.test.yaml files)
  graph FILE        print the flow as a Mermaid state diagram

options:
  --json            check: findings as JSON; test: every engine message as a JSON line
  -h, --help        this help
`;

/** The exit code of an internal error: a bug in vfdl, not a problem with the files it was given. */
export const INTERNAL_ERROR = 3;

/**
 * Runs a command. An error it did not expect becomes one line and a request to report it, with
 * exit code 3, never a stack trace.
 */
export async function guarded(run: () => number | Promise<number>, err: (line: string) => void): Promise<number> {
  try {
    return await run();
  } catch (e) {
    const what = (e instanceof Error ? e.message : String(e)).split('\n')[0]!.trim();
    err(`vfdl: internal error: ${what || 'unknown'}`);
    err('vfdl: this is a bug in vfdl, not in your files; please report it, with the command and the file that caused it');
    return INTERNAL_ERROR;
  }
}

export async function main(argv: string[]): Promise<number> {
  const out = (s: string) => process.stdout.write(s.endsWith('\n') ? s : `${s}\n`);
  const err = (s: string) => process.stderr.write(s.endsWith('\n') ? s : `${s}\n`);
  return guarded(() => dispatch(argv, out, err), err);
}

function dispatch(argv: string[], out: (s: string) => void, err: (s: string) => void): number | Promise<number> {
  const [command, ...rest] = argv;
  const json = rest.includes('--json');
  const files = rest.filter((a) => a !== '--json');
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    out(USAGE);
    return command === undefined ? 2 : 0;
  }
  const unknownOption = files.find((f) => f.startsWith('-'));
  if (unknownOption) {
    err(`vfdl: unknown option ${unknownOption}\n\n${USAGE}`);
    return 2;
  }
  switch (command) {
    case 'check':
      return runCheck(files, { json, out, err });
    case 'test':
      return runTests(files, { json, out, err });
    case 'graph':
      return runGraph(files, { out, err });
    default:
      err(`vfdl: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}
