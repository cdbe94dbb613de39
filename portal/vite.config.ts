import { defineConfig } from 'vite';

/**
 * The path the page is served under, a build setting: `PORTAL_BASE=/tools/processes/ npm run
 * build:portal` for a copy hosted elsewhere. The service itself serves the default, /portal/.
 */
const base = process.env.PORTAL_BASE ?? '/portal/';
if (!/^\/([^/?#\s]+\/)*$/.test(base)) {
  throw new Error(`PORTAL_BASE must be an absolute path ending in / (like /portal/), not "${base}"`);
}

// Built from the repository root (`npm run build:portal`): paths are relative to it.
export default defineConfig({
  root: 'portal',
  // Every asset URL carries the base path.
  base,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Hashed file names: the service serves assets/ as immutable.
    assetsDir: 'assets',
    target: 'es2022',
  },
});
