// `npm start`: installs what is missing, builds the console if needed, then runs the server in the
// foreground, passing SIGINT/SIGTERM on so that it shuts down cleanly.
import { spawn } from 'node:child_process';
import { checkNode, ensureConsoleBuilt, ensureDependencies, ROOT } from './preflight.mjs';

checkNode();
ensureDependencies();
ensureConsoleBuilt();

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 1 : 0));
});
