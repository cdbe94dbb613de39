import { defineConfig } from 'vite';

// Built from the repository root (`npm run build:portal`): paths are relative to it.
export default defineConfig({
  root: 'portal',
  // The service serves the page under /portal/; every asset URL carries that prefix.
  base: '/portal/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Hashed file names: the service serves assets/ as immutable.
    assetsDir: 'assets',
    target: 'es2022',
  },
});
