import { expect, test } from './support/shared-account';
import { expectNoAxeViolations } from './support/fixtures';

// The company search page says how many companies match, not how many fit on one page, and
// pages through all of them (plain links, with or without JavaScript).

test('the company search counts every match and pages through them', async ({ page }) => {
  await page.goto('/company?query=a');
  const heading = page.getByRole('heading', { name: /results? for “a”/ });
  const total = Number(((await heading.innerText()).match(/^(\d+)/) ?? ['', '0'])[1]);
  expect(total).toBeGreaterThan(50);
  const rows = page.getByRole('table', { name: /results? for “a”/ }).locator('tbody tr');
  await expect(rows).toHaveCount(50);
  const pages = page.getByRole('navigation', { name: 'Search result pages' });
  await expect(pages).toContainText(`Page 1 of ${Math.ceil(total / 50)}`);
  // Tickers can repeat (a recycled ticker), so rows are told apart by the company each links to.
  const companies = () => rows.locator('td:first-child a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  const firstPage = await companies();
  await pages.getByRole('link', { name: 'Next page' }).click();
  await expect(pages).toContainText('Page 2 of');
  await expect(heading).toHaveText(new RegExp(`^${total} results`));
  await expect(rows).toHaveCount(Math.min(50, total - 50));
  const secondPage = await companies();
  expect(secondPage.filter((t) => firstPage.includes(t))).toEqual([]);
  await expectNoAxeViolations(page);
});
