import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

/** The web client: built into web/dist (served by the API on the same origin). */
export default defineConfig({
  root: path.resolve(__dirname),
  plugins: [react()],
  // '@/…' is web/src, '@contracts/…' the shared HTTP contracts (the one part of the server web may
  // import); the same two are in tsconfig.json (paths) and jest.config.js (moduleNameMapper).
  resolve: {
    alias: {
      '@': path.resolve(__dirname, 'src'),
      '@contracts': path.resolve(__dirname, '../domain/contracts'),
    },
  },
  build: { outDir: path.resolve(__dirname, 'dist'), emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: {
      '/api': { target: apiTarget },
      '/ws': { target: apiTarget, ws: true },
    },
  },
});
