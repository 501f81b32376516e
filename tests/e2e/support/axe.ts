import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type Browser, type Page } from '@playwright/test';
import type { AxeResults, ContextObject, RunOptions } from 'axe-core';
import { waitForHydration } from './page-helpers';

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * axe-core's minified build, put into the page once per check. (@axe-core/playwright put the
 * unminified 1.5 MB source in twice a check, and opened a page to merge the result in: about a
 * second of the browser's CPU per check on CI, where the browser is most of the run.)
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The scratch page a browser's "nojs" pages are checked in, and the page it shows now. */
type Scratch = { page: Page; shown: { url: string; html: string } };
const scratchPages = new WeakMap<Browser, Promise<Scratch>>();

/**
 * One JavaScript-enabled page per browser, navigated to each checked page in turn: a browser
 * context and page of its own for every check cost about half a second of CPU each on CI.
 */
function scratchPage(browser: Browser): Promise<Scratch> {
  let scratch = scratchPages.get(browser);
  if (!scratch) {
    scratch = (async () => {
      // Requests leaving this machine fail in this context too (the browser's proxy settings, playwright.config.ts).
      const context = await browser.newContext({ javaScriptEnabled: true });
      const state: Scratch = { page: await context.newPage(), shown: { url: '', html: '' } };
      // The page checked is the one shown; its styles and images load from the app as usual.
      await context.route(
        // A request's address has no fragment; the page's may.
        (u) => u.href === state.shown.url.replace(/#.*$/, ''),
        (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: state.shown.html }),
      );
      return state;
    })();
    scratchPages.set(browser, scratch);
  }
  return scratch;
}

/**
 * axe runs as a script in the page, which a page without JavaScript cannot do. For the "nojs"
 * project the page's exact DOM (what a visitor without JavaScript gets) is shown, scripts
 * removed, in a JavaScript-enabled scratch page at the same address, so styles load as usual.
 */
async function pageForAxe(page: Page): Promise<Page> {
  if (test.info().project.use.javaScriptEnabled !== false) return page;
  const html = (await page.content()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '');
  const browser = page.context().browser();
  if (!browser) throw new Error('expectNoAxeViolations: no browser behind this page');
  const scratch = await scratchPage(browser);
  scratch.shown = { url: page.url(), html };
  // Laid out as the visitor sees it (a test may have narrowed its page to a phone's width).
  const size = page.viewportSize();
  if (size) await scratch.page.setViewportSize(size);
  // A blank page first: the same address again would otherwise be a same-document navigation
  // when it has a fragment, and keep the page shown before.
  await scratch.page.goto('about:blank');
  await scratch.page.goto(scratch.shown.url);
  return scratch.page;
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

/**
 * Fails with a readable list when axe finds WCAG 2.1 A/AA violations on the current page.
 * `rules`: best-practice rules (e.g. landmark-unique) checked as well as the WCAG tags, in the same run.
 */
export async function expectNoAxeViolations(page: Page, options: { exclude?: string[]; rules?: string[] } = {}): Promise<void> {
  const target = await pageForAxe(page);
  // With JavaScript, hydration swaps the server-drawn dialog for Ark UI's, which fades in: the
  // animations to wait for may not have started yet (a fading OK button failed axe once on CI).
  await waitForHydration(target);
  await shortAnimationsFinished(target);
  // A rule enabled by name runs beside the tags' rules (axe's ruleShouldRun).
  const runOptions: RunOptions = {
    runOnly: { type: 'tag', values: AXE_TAGS },
    rules: Object.fromEntries((options.rules ?? []).map((rule) => [rule, { enabled: true }])),
  };
  const context: ContextObject = { exclude: (options.exclude ?? []).map((selector) => [selector]) };
  if (!(await target.evaluate(() => 'axe' in window))) await target.evaluate(AXE_SOURCE);
  // Handed over as JSON: Playwright's types for a structured argument this deep do not resolve.
  const { violations } = (await target.evaluate(
    (json) => {
      const [c, o] = JSON.parse(json) as [unknown, unknown];
      return (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<unknown> } }).axe.run(c, o);
    },
    JSON.stringify([context, runOptions]),
  )) as AxeResults;
  const summary = violations.map(
    (v) =>
      `${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n` + v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary ?? ''}`).join('\n'),
  );
  expect(summary, `axe violations on ${page.url()}`).toEqual([]);
}
