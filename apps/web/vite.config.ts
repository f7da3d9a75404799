import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { precompress } from './build/precompress.ts';

const SERVER = 'http://127.0.0.1:8686';
const LANGS = ['zh-CN', 'en', 'zh-TW'] as const;

/**
 * Internet Explorer cannot run the console's code, so the warning recommending Chrome (spec §2) is written into
 * index.html as plain ES5, with its texts taken from the locale files so they have one source.
 */
function ieWarning(): Plugin {
  return {
    name: 'uiot-ie-warning',
    transformIndexHtml(html) {
      const texts = Object.fromEntries(
        LANGS.map((lang) => {
          const auth = JSON.parse(
            readFileSync(new URL(`./src/locales/${lang}/auth.json`, import.meta.url), 'utf8'),
          );
          return [lang, auth.ieWarning as string];
        }),
      );
      return html.replace('{"ieWarning": "filled in by vite.config.ts"}', JSON.stringify(texts));
    },
  };
}

export default defineConfig({
  plugins: [ieWarning(), precompress()],
  esbuild: { jsx: 'automatic' },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: SERVER, changeOrigin: true },
      '/config.json': { target: SERVER, changeOrigin: true },
      '/websocket': { target: SERVER, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      // Libraries' "use client" directives and pure-annotation comments are meaningless in this bundle.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' || warning.code === 'INVALID_ANNOTATION') return;
        warn(warning);
      },
      output: {
        // A chunk named after an `index` module (antd's components are folders) takes its folder's name,
        // so that what a page loads can be told apart (bench/bundle.bench.ts lists the chunks).
        chunkFileNames(chunk) {
          const module = chunk.facadeModuleId ?? chunk.moduleIds.at(-1);
          const name = chunk.name === 'index' && module ? path.basename(path.dirname(module)) : '[name]';
          return `assets/${name}-[hash].js`;
        },
      },
    },
  },
});
