import { waitForHydration } from './support/page-helpers';
import { expect, test } from './support/shared-account';

// Results follow the edited screen: with JavaScript as you edit (the form keeps focus and the
// address bar follows), without JavaScript when the form is submitted.

test('results follow an edited rule', async ({ page }, testInfo) => {
  await page.goto(`/screener?r=${encodeURIComponent('price > 0')}`);
  const count = page.getByTestId('screener-count').locator('strong');
  await expect(count).not.toHaveText('0');
  // Typed before hydration, the edit would reach only the server-drawn form.
  await waitForHydration(page);
  const rule = page.locator('#rule-0');
  await rule.fill('price > 100000000');
  if (testInfo.project.name === 'nojs') {
    await page.getByRole('button', { name: 'Run screen' }).first().click();
  }
  await expect(count).toHaveText('0');
  await expect(page).toHaveURL(/r=price\+%3E\+100000000|r=price%20%3E%20100000000/);
  if (testInfo.project.name === 'js') {
    // No navigation happened: the rule field still has the keyboard.
    await expect(rule).toBeFocused();
    // The address bar can be shared: loading it shows the same screen.
    await page.reload();
    await expect(page.getByTestId('screener-count').locator('strong')).toHaveText('0');
  }
});
