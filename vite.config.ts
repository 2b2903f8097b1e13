import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { marked } from 'marked';
import type { Plugin } from 'vite';

/**
 * Issue 13: the user manual is Markdown in docs/manual, rendered here at build time into the module
 * `virtual:user-manual` (one section per `##` heading), so the browser gets HTML and no parser.
 */
function userManual(): Plugin {
  const id = 'virtual:user-manual';
  const dir = join(import.meta.dirname, 'docs/manual');
  const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return {
    name: 'user-manual',
    resolveId: (source) => (source === id ? `\0${id}` : null),
    load(resolved) {
      if (resolved !== `\0${id}`) return null;
      const sections = readdirSync(dir).filter((file) => file.endsWith('.md')).sort().flatMap((file) => {
        this.addWatchFile(join(dir, file));
        const [head, ...parts] = readFileSync(join(dir, file), 'utf8').split(/^## /m);
        const area = /^# (.+)$/m.exec(head)?.[1]?.trim() ?? file;
        return parts.map((part) => {
          const [title, ...body] = part.split('\n');
          const markdown = body.join('\n').trim();
          const html = marked.parse(markdown, { async: false });
          const text = html.replace(/<[^>]+>/g, ' ').replace(/&[a-z#0-9]+;/g, ' ').replace(/\s+/g, ' ').trim();
          return { id: slug(`${area}-${title}`), area, title: title.trim(), html, text };
        });
      });
      return `export const sections = ${JSON.stringify(sections)};`;
    },
  };
}

// The server (src/server) serves dist/ and the API on one port; in dev, Vite proxies to it.
const backend = process.env.BACKEND_URL ?? 'http://localhost:8000';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    userManual(),
    // Issue 5: installable PWA. The service worker source is sw/sw.ts (injectManifest: Vite builds it and
    // injects the precache list). Registration is ours (src/client/lib/pwa.ts, workbox-window, prompt to update).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      injectRegister: false,
      registerType: 'prompt',
      includeManifestIcons: false,
      injectManifest: {
        // The app shell: scripts, styles, index.html and the small images of the login screen.
        globPatterns: ['**/*.{js,css,html,svg,webmanifest}'],
        rollupFormat: 'iife',
      },
      manifest: {
        id: '/',
        name: process.env.APP_NAME || 'Staffing Back Office',
        short_name: 'Back Office',
        description: 'Back office for staffing and IT consulting: people, partners, documents and billing.',
        start_url: '/dashboard',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        // Light colours here; dark ones in user_preferences (Chromium's dark-mode manifest member) and, for
        // the page itself, in the <meta name="theme-color" media=...> tags of index.html.
        theme_color: '#4f46e5',
        background_color: '#f8fafc',
        // Not in vite-plugin-pwa's manifest type yet; written out as given.
        ...({ user_preferences: { color_scheme: { dark: { theme_color: '#020617', background_color: '#020617' } } } } as object),
        icons: [
          { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/pwa-maskable-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      devOptions: { enabled: false },
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 400,
    rollupOptions: {
      output: {
        // The framework core is shared by every screen; keep it in one long-cached chunk.
        manualChunks(id: string) {
          if (/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'react';
          // What every screen, the login one included, needs before it draws: one chunk rather than
          // the five small ones the lazy screens' shared imports would cut it into (each gzips apart).
          if (/src\/client\/(lib\/(api|config|navigation|toast)|stores\/(auth|pwa|ui|firm))\.ts$|src\/shared\/(routes|guards|permission-check)\.ts$/.test(id)) return 'core';
          return undefined;
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: true, ws: true },
      '/sanctum': { target: backend, changeOrigin: true },
      '/app': { target: backend, ws: true },
    },
  },
});
