import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * React Router's package points every import at its development build (dev warnings on, and larger),
 * even for a production bundle; its production build sits beside it. A build uses that one.
 */
const reactRouterProduction = fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url));

// The web app. `npm run dev` serves it with hot reload and proxies the API to the Fastify server.
export default defineConfig(({ command }) => ({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: [
      // In the browser zod must run jitless (src/web/zod-jitless.ts); every `import … from 'zod'` gets it
      // through this module, loaded with the chunk that uses zod rather than with every page.
      { find: /^zod$/, replacement: fileURLToPath(new URL('./src/web/zod-browser.ts', import.meta.url)) },
      ...(command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : []),
    ],
  },
  // The manifest maps each source module to its chunk: bench/bundle-size.mjs reads it.
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // Written for bench/bundle-size.mjs, never linked from the bundle nor served (src/server/web.ts).
    sourcemap: 'hidden',
    manifest: true,
    rollupOptions: {
      // Building a zod schema has no side effect: a page that imports only the constants beside the
      // schemas in src/shared (limits, labels) then does not download zod.
      treeshake: { manualPureFunctions: ['z'] },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false },
      '/media': 'http://127.0.0.1:3000',
      '/webhooks': 'http://127.0.0.1:3000',
      '/healthz': 'http://127.0.0.1:3000',
    },
  },
}));
