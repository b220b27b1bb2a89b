// The console's build: served by the gateway under /console/, hashed file names under assets/.
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    target: 'es2022',
    emptyOutDir: true,
    // No inline data: URIs for scripts; fonts and images are files too.
    assetsInlineLimit: 0,
    // The chart library is only loaded by the pages that draw charts.
    modulePreload: { polyfill: false },
    rollupOptions: {
      // React Query's "use client" directives mean nothing without server components.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  oxc: { jsx: { runtime: 'automatic' } },
});
