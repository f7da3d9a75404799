// Prepares a fresh clone for `npm start` and `npm test` using Node built-ins only: checks Node, installs
// the npm dependencies when they are missing or out of date, and builds the console when its sources
// are newer than the last build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

export function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    console.error(`Node.js 20.19 or newer is needed; this is ${process.version}.`);
    process.exit(1);
  }
}

function lockHash() {
  return createHash('sha256')
    .update(readFileSync(path.join(ROOT, 'package-lock.json')))
    .digest('hex');
}

/**
 * Installs the locked dependencies when node_modules is missing or was installed from another lock.
 * `npm install` rather than `npm ci`: npm ci refuses a lock without the other platforms' optional
 * packages (as npm writes it when installing on this platform), while npm install follows the lock.
 */
export function ensureDependencies() {
  const stamp = path.join(ROOT, 'node_modules', '.uiot-lock-hash');
  const wanted = lockHash();
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return;
  console.info('Installing dependencies (npm install)…');
  const status = run(NPM, ['install', '--no-audit', '--no-fund', '--loglevel=error']);
  if (status !== 0) {
    console.error('npm install failed: see the messages above.');
    process.exit(status);
  }
  writeFileSync(stamp, wanted);
}

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** Builds the console when `apps/web/dist` is missing or older than its sources. */
export function ensureConsoleBuilt() {
  const built = path.join(ROOT, 'apps/web/dist/index.html');
  const sources = [
    'apps/web/src',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'apps/web/build',
    'apps/web/public',
    'packages/contracts/src',
    'packages/contracts/package.json',
  ];
  const newestSource = Math.max(...sources.map((s) => newestMtime(path.join(ROOT, s))));
  if (existsSync(built) && statSync(built).mtimeMs >= newestSource) return;
  console.info('Building the console…');
  const status = run(NPM, ['run', 'build', '-w', 'apps/web', '--silent']);
  if (status !== 0) {
    console.error('The console build failed: see the messages above.');
    process.exit(status);
  }
}
