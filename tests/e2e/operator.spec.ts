// A flow that cannot run shows the operator screen: the same FILE:LINE:COL diagnostics as
// `vfdl check`, or a clear message when the file cannot be fetched.

import { expect, test } from './support/test.ts';
import { TEST_FLOWS, brokenFlow, serveFlow } from './support/flows.ts';
import { kiosk } from './support/kiosk.ts';

test('an invalid flow lists its diagnostics with file, line, column and code', async ({ page }) => {
  const file = `${TEST_FLOWS}/bad.yaml`;
  const { yaml, expected } = brokenFlow('multiple-errors', file);
  await serveFlow(page, file, yaml);

  await page.goto(`/?flow=${file}`);

  await expect(kiosk(page)).toHaveAttribute('data-phase', 'invalid');
  await expect(page.getByRole('heading', { name: "This kiosk's flow cannot start" })).toBeVisible();
  await expect(page.getByText(`The flow ${file} has 6 errors.`)).toBeVisible();
  const problems = page.getByRole('list', { name: 'Problems in the flow file' }).getByRole('listitem');
  await expect(problems).toHaveText(expected);
  // Spelled out for the reader: the field type typo is at line 8, column 35.
  await expect(problems.nth(1)).toHaveText(
    `${file}:8:35: error: "txt" is not one of text, email, tel, number, date, select, radio, checkbox (did you mean "text"?) [bad-value]`,
  );
  await expect(problems.filter({ hasText: /^\/test-flows\/bad\.yaml:14:7: error: missing required key "target" \[missing-key\]$/ })).toHaveCount(1);
  // Nothing for a visitor to press (the operator's corner is outside the screen's main part).
  await expect(page.getByRole('main').getByRole('button')).toHaveCount(0);
});

test('a flow file that is not there says so on the operator screen', async ({ page }) => {
  const file = `${TEST_FLOWS}/missing.yaml`;

  await page.goto(`/?flow=${file}`);

  await expect(kiosk(page)).toHaveAttribute('data-phase', 'invalid');
  await expect(page.getByRole('heading', { name: "This kiosk's flow cannot start" })).toBeVisible();
  await expect(page.getByRole('listitem')).toHaveText([
    `${file}:1:1: error: could not load the flow: there is no flow file at ${file} on this kiosk's server [not-a-flow]`,
  ]);
});
