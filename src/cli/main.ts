// The `vfdl` command line: dispatches to check, test and graph. Returns the exit code.

import { runCheck } from './check.ts';
import { runGraph } from './graph.ts';
import { runTests } from './test-command.ts';

const USAGE = `usage: vfdl <command> [options] FILE...

commands:
  check FILE...     validate flow files; exit 1 on any error (warnings are printed)
  test SCRIPT...    run conversation tests (files or folders of .yaml scripts)
  graph FILE        print the flow as a Mermaid state diagram

options:
  --json            check: findings as JSON; test: every engine message as a JSON line
  -h, --help        this help
`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const json = rest.includes('--json');
  const files = rest.filter((a) => a !== '--json');
  const out = (s: string) => process.stdout.write(s.endsWith('\n') ? s : `${s}\n`);
  const err = (s: string) => process.stderr.write(s.endsWith('\n') ? s : `${s}\n`);
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
