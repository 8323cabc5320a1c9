// Starts upstream + One Hub (with --cpu-prof) and drives 64-concurrent load for 6 s.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = '/work/main';
const up = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/serve.ts'), 'upstream'], {
  stdio: ['ignore', 'pipe', 'inherit'],
  cwd: root,
});
const upUrl = await new Promise((r) => up.stdout.once('data', (d) => r(d.toString().trim())));
const dir = mkdtempSync(join(tmpdir(), 'prof-'));
const hub = spawn(
  process.execPath,
  ['--cpu-prof', '--cpu-prof-dir', '/tmp/prof', join(root, 'apps/server/dist/main.js')],
  {
    env: {
      ...process.env,
      PORT: '39123',
      HOST: '127.0.0.1',
      SQLITE_PATH: join(dir, 'db.sqlite'),
      LOG_LEVEL: 'warn',
      INITIAL_ROOT_ACCESS_TOKEN: 'bench-root-access-token-0123456789',
    },
    stdio: 'inherit',
  },
);
for (let i = 0; i < 100; i++) {
  if (
    await fetch('http://127.0.0.1:39123/api/status').then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  await new Promise((r) => setTimeout(r, 100));
}
const { prepareOneHub } = await import(join(root, 'bench/setup.ts'));
const key = await prepareOneHub('http://127.0.0.1:39123', 'bench-root-access-token-0123456789', upUrl);
const autocannon = (await import('autocannon')).default;
const r = await autocannon({
  url: 'http://127.0.0.1:39123/v1/chat/completions',
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
  body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] }),
  connections: 64,
  duration: 6,
});
console.log('rps', r.requests.average, 'non2xx', r.non2xx);
hub.kill('SIGINT');
up.kill('SIGTERM');
await new Promise((r) => hub.once('exit', r));
