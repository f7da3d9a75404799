// `npm test`: installs what is missing (npm packages, Debian's chromium), builds the console, then runs the
// typecheck, the linter and every Vitest project (unit, integration on PGlite and, when TEST_DATABASE_URL
// is set, PostgreSQL, and the browser tests), and ends with one summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkNode, ensureConsoleBuilt, ensureDependencies, ROOT, run } from './preflight.mjs';

const CHROMIUM = '/usr/bin/chromium';

/** The Chinese font the screenshots need: without it every Chinese character is drawn as a box. */
const CJK_FONT = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';

function ensureChromium() {
  if (existsSync(CHROMIUM) && existsSync(CJK_FONT)) return;
  if (process.getuid?.() !== 0) {
    console.error(
      "The browser tests need Debian's Chromium at /usr/bin/chromium and the Noto CJK fonts. Install them with:\n" +
        '    sudo apt-get update && sudo apt-get install -y chromium fonts-noto-cjk',
    );
    process.exit(1);
  }
  console.info('Installing Chromium and the Noto CJK fonts (apt-get install chromium fonts-noto-cjk)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env });
  const status = run('apt-get', ['install', '-y', '-qq', 'chromium', 'fonts-noto-cjk'], { env });
  if (status !== 0 || !existsSync(CHROMIUM) || !existsSync(CJK_FONT)) {
    console.error('Chromium or the Noto CJK fonts could not be installed: see the messages above.');
    process.exit(1);
  }
}

checkNode();
ensureDependencies();
ensureChromium();
ensureConsoleBuilt();

const failures = [];
console.info('\n== typecheck');
if (run(process.execPath, ['scripts/typecheck.mjs']) !== 0) failures.push('typecheck');
console.info('\n== lint');
if (run(process.execPath, ['node_modules/@biomejs/biome/bin/biome', 'check', '.']) !== 0)
  failures.push('lint');

console.info(
  `\n== tests (PGlite${process.env.TEST_DATABASE_URL ? ' and PostgreSQL' : '; set TEST_DATABASE_URL to add PostgreSQL'})`,
);
const artifacts = path.join(ROOT, '.test-artifacts');
mkdirSync(artifacts, { recursive: true });
const report = path.join(artifacts, 'vitest.json');
const vitest = spawnSync(
  process.execPath,
  [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ],
  { cwd: ROOT, stdio: 'inherit' },
);

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(report)) {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed = results.numPassedTests ?? 0;
  failed = results.numFailedTests ?? 0;
  skipped = (results.numPendingTests ?? 0) + (results.numTodoTests ?? 0);
  if (vitest.status !== 0 && failed === 0) failures.push('test run (a file failed to load or a hook failed)');
} else {
  failures.push('test run (no report)');
}
if (failed > 0) failures.push(`${failed} failing tests`);
if (failures.length > 0) console.error(`\nFailed: ${failures.join(', ')}`);
console.info(
  `\nTests: ${passed} passed, ${failed + (failures.length > 0 && failed === 0 ? 1 : 0)} failed, ${skipped} skipped`,
);
process.exit(failures.length > 0 ? 1 : 0);
