import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { THEME_SCRIPT } from '../domain/contracts/theme-script';

const apiTarget = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

/**
 * A brotli and a gzip copy beside each built script and style (the server sends them to browsers
 * that accept them: api/http/web-assets.ts), compressed once at build time at the best levels.
 */
function precompress(): Plugin {
  return {
    name: 'lively-precompress',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    writeBundle(options) {
      const assets = path.join(options.dir!, 'assets');
      for (const name of readdirSync(assets).filter((file) => /\.(js|css|svg)$/.test(file))) {
        const content = readFileSync(path.join(assets, name));
        if (content.length < 1024) continue;
        writeFileSync(path.join(assets, `${name}.gz`), gzipSync(content, { level: 9 }));
        const brotli = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length };
        writeFileSync(path.join(assets, `${name}.br`), brotliCompressSync(content, { params: brotli }));
      }
    },
  };
}

/** The theme's first script, inline at the top of the head (domain/contracts/theme-script.ts). */
function themeScript(): Plugin {
  return {
    name: 'lively-theme-script',
    transformIndexHtml: () => [{ tag: 'script', children: THEME_SCRIPT, injectTo: 'head' }],
  };
}

const REACT_FACADE = '\0lively-react-esm';

/**
 * React is CommonJS, and the bundler wraps it anew for each module that imports it: 467 modules
 * of the app and MUI, each copying React's exports onto an object of its own while a phone
 * evaluates the app. Imports of 'react' get one ESM module instead, which wraps it once (the
 * module evaluation task of home at 4x throttling: 244-399 ms before, 120-234 ms after).
 */
function reactAsOneModule(): Plugin {
  return {
    name: 'lively-react-as-one-module',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer, options) {
      const required = (options as { kind?: string }).kind === 'require-call';
      return source === 'react' && importer !== REACT_FACADE && !required ? REACT_FACADE : null;
    },
    load(id) {
      if (id !== REACT_FACADE) return null;
      const names = Object.keys(createRequire(__filename)('react')).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name));
      return `import React from 'react';\nexport default React;\nexport const { ${names.join(', ')} } = React;\n`;
    },
  };
}

/** The web client: built into web/dist (served by the API on the same origin). */
export default defineConfig({
  root: path.resolve(__dirname),
  plugins: [reactAsOneModule(), react(), themeScript(), precompress()],
  // '@/…' is web/src, '@contracts/…' the shared HTTP contracts (the one part of the server web may
  // import); the same two are in tsconfig.json (paths) and jest.config.js (moduleNameMapper).
  resolve: {
    alias: {
      '@': path.resolve(__dirname, 'src'),
      '@contracts': path.resolve(__dirname, '../domain/contracts'),
    },
  },
  build: {
    outDir: path.resolve(__dirname, 'dist'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    // The manifest tells web/prerender.ts which files each pre-rendered page needs; the landing
    // page has an entry of its own (web/src/landing-main.ts), without the rest of the app.
    manifest: true,
    rollupOptions: {
      input: { index: path.resolve(__dirname, 'index.html'), landing: path.resolve(__dirname, 'src/landing-main.ts') },
      // Few files on a page's first load: by default every MUI component and icon is a chunk of
      // its own (77 files for home), and a phone pays per file. MUI and its styling engine, used by
      // every app page, are one chunk; the app's own shared modules are grouped by the pages that
      // use them (entriesAware), so the landing page still loads only what it imports.
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'mui',
              test: /node_modules[\\/](@mui[\\/](material|system|utils|styled-engine|icons-material)|@emotion|@popperjs|react-transition-group|clsx|stylis|@babel)[\\/]/,
              minShareCount: 2,
            },
            {
              // What the first scripts of a page import (the landing page's, and the app's entry,
              // web/src/main.tsx, with the bundler's helper for its dynamic imports): a small chunk
              // of its own. Grouped with the app's shared modules they came in a chunk that
              // imports MUI, which both pages then loaded and evaluated at once.
              name: 'boot',
              test: /web[\\/]src[\\/]lib[\\/](logger|client-id|next-task|load-chunk)\.ts$|domain[\\/]contracts[\\/]log-levels\.ts$|vite[\\/]preload-helper/,
              priority: 1,
            },
            {
              name: 'shared',
              test: /web[\\/]src[\\/]/,
              minShareCount: 2,
              entriesAware: true,
              entriesAwareMergeThreshold: 20_000,
            },
          ],
        },
      },
    },
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: {
      '/api': { target: apiTarget },
      '/ws': { target: apiTarget, ws: true },
    },
  },
});
