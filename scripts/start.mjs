// `npm start`: build the server and console if no build exists yet, then serve both on one port.
// package.json runs this with two V8 flags that bound the memory under load (see BENCHMARKS.md):
// `--max-semi-space-size=4`, a small young generation (about 30 MB less at the peak than the
// default, for about 5% more CPU per request), and `--heap-growing-percent=20`, which lets the old
// generation grow by a fifth of what survived the last full collection before the next one,
// instead of up to 4 times: the peak no longer depends on when V8 happens to collect (137-166 MB
// before, 141-145 after, at the same requests/s).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const serverEntry = new URL('../apps/server/dist/main.js', import.meta.url);
const consoleIndex = new URL('../apps/web/dist/index.html', import.meta.url);

if (!existsSync(serverEntry) || !existsSync(consoleIndex)) {
  console.log('No build found; building One Hub once (about a minute)...');
  const build = spawnSync('npm', ['run', 'build'], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

await import(serverEntry.href);
