// Bundles the page into one script and one stylesheet, copies the static files beside them, and
// checks the script against its budget: a build whose page would be heavier fails.
// Usage: node build.mjs <output directory> [--development]   (Maven passes target/classes/static)
// Source maps only with --development: served beside the page, they would publish its sources.
import { build } from 'esbuild';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

// The most the page's script may weigh as it is sent, gzip-compressed (server.compression).
const SCRIPT_BUDGET_BYTES = 200_000;

const development = process.argv.includes('--development');
const outdir = resolve(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? '../../../target/classes/static');
mkdirSync(outdir, { recursive: true });
cpSync('public', outdir, { recursive: true });
if (!development) {
  // Maps left by an earlier development build.
  for (const map of ['app.js.map', 'app.css.map']) rmSync(resolve(outdir, map), { force: true });
}

await build({
  entryPoints: { app: 'src/main.jsx' },
  bundle: true,
  minify: true,
  sourcemap: development,
  legalComments: 'none',
  format: 'esm',
  target: 'es2020',
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': development ? '"development"' : '"production"' },
  outdir,
  logLevel: 'warning',
});

const script = readFileSync(resolve(outdir, 'app.js'));
const compressed = gzipSync(script).length;
const kb = (bytes) => `${Math.round(bytes / 1000)} kB`;
console.log(`page bundled into ${outdir}: app.js ${kb(script.length)}, ${kb(compressed)} gzip-compressed (budget ${kb(SCRIPT_BUDGET_BYTES)})`);
if (compressed > SCRIPT_BUDGET_BYTES) {
  console.error(`app.js is ${kb(compressed)} gzip-compressed, over its budget of ${kb(SCRIPT_BUDGET_BYTES)}: make the page lighter.`);
  process.exit(1);
}
