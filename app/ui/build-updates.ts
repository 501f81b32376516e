// Build updates: every hour the browser asks for the latest build id; once a
// newer build exists, the next navigation is a full page load, at most once per 10 s per path.

export const BUILD_CHECK_INTERVAL_MS = 3_600_000;
export const RELOAD_GUARD_MS = 10_000;

declare const __BUILD_ID__: string;
export const CURRENT_BUILD_ID: string = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'dev';

const STORAGE_KEY = 'quarry:build-reloads';
let newBuildAvailable = false;

/** Pure rule: reload `path` now unless it was reloaded for a new build in the last 10 s. */
export function shouldReload(path: string, now: number, lastReloads: Record<string, number>): boolean {
  const last = lastReloads[path];
  return last === undefined || now - last >= RELOAD_GUARD_MS;
}

function readReloads(): Record<string, number> {
  try {
    return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Record<string, number>;
  } catch {
    return {};
  }
}

export async function checkForNewBuild(fetcher: typeof fetch = fetch): Promise<boolean> {
  try {
    const res = await fetcher('/builds/latest.json', { headers: { Accept: 'application/json' }, cache: 'no-store' });
    if (!res.ok) return newBuildAvailable;
    const latest = (await res.json()) as { id?: string };
    newBuildAvailable = typeof latest.id === 'string' && latest.id !== CURRENT_BUILD_ID;
  } catch {
    // Offline or server restarting: try again at the next interval.
  }
  return newBuildAvailable;
}

/** Called on every client-side navigation; returns true when it started a full reload. */
export function reloadIfNewBuild(path: string): boolean {
  if (!newBuildAvailable) return false;
  const reloads = readReloads();
  const now = Date.now();
  if (!shouldReload(path, now, reloads)) return false;
  reloads[path] = now;
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(reloads));
  window.location.reload();
  return true;
}

export function installBuildUpdateChecks(): void {
  window.setInterval(() => void checkForNewBuild(), BUILD_CHECK_INTERVAL_MS);
}
