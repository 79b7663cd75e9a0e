// Files on the author's computer: reading the flows and tests they choose, and saving a text as a
// file (a download, which every browser offers; where a browser asks, the author picks the place).

import type { TestFile } from './worker-link.ts';

/** Files the author chose, sorted into flows and conversation tests (`*.test.yaml`). */
export async function readChosen(files: Iterable<File>): Promise<{ flows: TestFile[]; tests: TestFile[]; skipped: string[] }> {
  const flows: TestFile[] = [];
  const tests: TestFile[] = [];
  const skipped: string[] = [];
  for (const file of files) {
    if (!/\.ya?ml$/i.test(file.name)) {
      skipped.push(file.name);
      continue;
    }
    const text = await file.text();
    (/\.test\.ya?ml$/i.test(file.name) ? tests : flows).push({ name: file.name, text });
  }
  return { flows, tests, skipped };
}

/** Saves `text` as a file named `name` (the browser's download). */
export function saveFile(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
