import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Fails with a readable list when axe finds WCAG 2.1 A/AA violations on the current page. */
export async function expectNoAxeViolations(page: Page, options: { exclude?: string[] } = {}): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(AXE_TAGS);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  const summary = violations.map(
    (v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n` + v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary ?? ''}`).join('\n'),
  );
  expect(summary, `axe violations on ${page.url()}`).toEqual([]);
}
