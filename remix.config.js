// The Remix Vite plugin does not read this file by itself: vite.config.ts imports these options
// so that one file holds the Remix settings, as the design card asks.
/** @type {import('@remix-run/dev').VitePluginConfig} */
export default {
  appDirectory: 'app',
  // QUARRY_BUILD_DIR lets parallel test runs build side by side; the default is build/.
  buildDirectory: process.env.QUARRY_BUILD_DIR ?? 'build',
  ignoredRouteFiles: ['**/*.test.*', '**/*.css'],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
    v3_routeConfig: false,
  },
};
