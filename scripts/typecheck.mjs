// Type-checks every workspace that has a tsconfig.json (strict TypeScript everywhere).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT, run } from './preflight.mjs';

const projects = [
  'packages/contracts',
  'packages/device-protocol',
  'apps/server',
  'apps/web',
  'apps/simulator',
  'e2e',
  'bench',
].filter((p) => existsSync(path.join(ROOT, p, 'tsconfig.json')));
let failed = 0;
for (const project of projects) {
  const status = run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project]);
  if (status !== 0) {
    console.error(`typecheck failed: ${project}`);
    failed++;
  }
}
process.exit(failed > 0 ? 1 : 0);
