import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { waitForHydration } from './page-helpers';

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * axe runs as a script in the page, which a page without JavaScript cannot do. For the "nojs"
 * project the page's exact DOM (what a visitor without JavaScript gets) is shown, scripts
 * removed, in a scratch JavaScript-enabled page at the same address, so styles load as usual.
 */
async function pageForAxe(page: Page): Promise<{ target: Page; dispose: () => Promise<void> }> {
  if (test.info().project.use.javaScriptEnabled !== false) return { target: page, dispose: async () => {} };
  const url = page.url();
  const html = (await page.content()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '');
  const browser = page.context().browser();
  if (!browser) throw new Error('expectNoAxeViolations: no browser behind this page');
  // Requests leaving this machine fail in this context too (the browser's proxy settings, playwright.config.ts).
  const context = await browser.newContext({ javaScriptEnabled: true });
  const target = await context.newPage();
  await target.route(
    (u) => u.href === url,
    (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }),
  );
  await target.goto(url);
  return { target, dispose: () => context.close() };
}

/**
 * axe checks the page at rest: a dialog fading in has the colours of its way there (a button's
 * text at 3.7:1 against its background mid-fade, seen on CI). Short animations and transitions
 * (a second or less) are waited for; long ones (a progress bar's slow growth) are not.
 */
async function shortAnimationsFinished(page: Page): Promise<void> {
  // Two frames first: a render that an effect asked for (a dialog opened once mounted) starts its
  // animations by then.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => Number(a.effect?.getComputedTiming().endTime ?? Infinity) <= 1_000)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      // A paused animation never finishes: axe runs regardless after a while.
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ]),
  );
}

/** Fails with a readable list when axe finds WCAG 2.1 A/AA violations on the current page. */
/** `rules`: best-practice rules (e.g. landmark-unique) checked as well as the WCAG tags. */
export async function expectNoAxeViolations(page: Page, options: { exclude?: string[]; rules?: string[] } = {}): Promise<void> {
  const { target, dispose } = await pageForAxe(page);
  try {
    // With JavaScript, hydration swaps the server-drawn dialog for Ark UI's, which fades in: the
    // animations to wait for may not have started yet (a fading OK button failed axe once on CI).
    await waitForHydration(target);
    await shortAnimationsFinished(target);
    let builder = new AxeBuilder({ page: target }).withTags(AXE_TAGS);
    for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
    const { violations } = await builder.analyze();
    if (options.rules?.length) {
      let extra = new AxeBuilder({ page: target }).withRules(options.rules);
      for (const selector of options.exclude ?? []) extra = extra.exclude(selector);
      violations.push(...(await extra.analyze()).violations);
    }
    const summary = violations.map(
      (v) =>
        `${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n` +
        v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary ?? ''}`).join('\n'),
    );
    expect(summary, `axe violations on ${page.url()}`).toEqual([]);
  } finally {
    await dispose();
  }
}
