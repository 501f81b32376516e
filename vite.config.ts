import { vitePlugin as remix } from '@remix-run/dev';
import { defineConfig } from 'vite';
import tsconfigPaths from 'vite-tsconfig-paths';
import remixConfig from './remix.config.js';

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  plugins: [remix(remixConfig), tsconfigPaths()],
  server: { port: 3000 },
  // One id per build, shared by the client and server bundles (scripts/ensure-build.mjs sets it),
  // so browsers can tell that a newer build is being served (app/ui/build-updates.ts).
  define: { __BUILD_ID__: JSON.stringify(process.env.BUILD_ID ?? 'dev') },
  build: { target: 'es2022' },
  ssr: {
    // Native and server-only packages stay external; nivo and Ark ship ESM that Vite must bundle.
    noExternal: [/^@nivo\//, /^@ark-ui\//, /^d3-/, /^@react-spring\//],
  },
});
