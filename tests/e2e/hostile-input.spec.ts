// Odd and hostile input on the page: flows with repeated ids, patterns that could hang the
// kiosk or values of the wrong type never start (the operator screen lists why, as vfdl check
// does), and a typed answer is held to the length an answer may have.

import { expect, test } from './support/test.ts';
import { TEST_FLOWS, brokenFlow, serveFlow } from './support/flows.ts';
import { captions, kiosk, startVisit } from './support/kiosk.ts';

for (const name of ['duplicate-id', 'slow-pattern', 'type-mismatch']) {
  test(`a flow with ${name} errors shows them on the operator screen instead of starting`, async ({ page }) => {
    const file = `${TEST_FLOWS}/${name}.yaml`;
    const { yaml, expected } = brokenFlow(name, file);
    await serveFlow(page, file, yaml);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(`/?flow=${file}`);

    await expect(kiosk(page)).toHaveAttribute('data-phase', 'invalid');
    await expect(page.getByRole('list', { name: 'Problems in the flow file' }).getByRole('listitem')).toHaveText(expected);
    expect(errors).toEqual([]);
  });
}

test('the typing box holds 1,000 characters, and such an answer is taken like any other', async ({ page }) => {
  await startVisit(page);
  const box = page.getByLabel('Type your answer', { exact: true });
  await box.fill(`Alex ${'a'.repeat(1500)}`);
  await expect(box).toHaveValue(`Alex ${'a'.repeat(995)}`);
  await box.press('Enter');
  await expect(box).toHaveValue('');
  await expect(captions(page).getByText(`Alex ${'a'.repeat(995)}`, { exact: true })).toBeVisible();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'running');
});
