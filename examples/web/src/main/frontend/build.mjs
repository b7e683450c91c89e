// Bundles the page into one script and one stylesheet, and copies the static files beside them.
// Usage: node build.mjs <output directory>   (Maven passes target/classes/static)
import { build } from 'esbuild';
import { cpSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

const outdir = resolve(process.argv[2] ?? '../../../target/classes/static');
mkdirSync(outdir, { recursive: true });
cpSync('public', outdir, { recursive: true });

await build({
  entryPoints: { app: 'src/main.jsx' },
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'esm',
  target: 'es2020',
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  outdir,
  logLevel: 'warning',
});
console.log(`page bundled into ${outdir}`);
