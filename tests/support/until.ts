/** Polls `check` until it is true; fails with `what` after `ms` (background work: jobs, workers). */
export async function until(check: () => Promise<boolean>, what: string, ms = 60_000, every = 50): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, every));
  }
  throw new Error(`timed out waiting for ${what}`);
}
