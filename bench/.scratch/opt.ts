import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startChild, startFlags, BENCH_ROOT_TOKEN } from '../processes.js';
import { prepareOneHub } from '../setup.js';
const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'opt-'));
const upstream = await startChild(process.execPath, ['--import', 'tsx', join(root, 'bench/serve.ts'), 'upstream'], {});
const port = 20_000 + Math.floor(Math.random() * 12_000);
const out = join(dir, 'trace.txt');
const child = spawn(process.execPath, [...startFlags(root), ...(process.env.F ?? '--trace-opt --trace-deopt').split(' '), join(root, 'apps/server/dist/main.js')], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SQLITE_PATH: join(dir, 'db.sqlite'), LOG_LEVEL: 'warn', INITIAL_ROOT_ACCESS_TOKEN: BENCH_ROOT_TOKEN, MAX_CONNECTIONS_PER_ADDRESS: '4096' },
  stdio: ['ignore', openSync(out, 'w'), 'ignore'],
});
const base = `http://127.0.0.1:${port}`;
for (let i = 0; i < 300; i++) { if (await fetch(`${base}/api/status`).then((r) => r.ok, () => false)) break; await new Promise((r) => setTimeout(r, 100)); }
const key = await prepareOneHub(base, BENCH_ROOT_TOKEN, upstream.url);
const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] });
const lines = () => readFileSync(out, 'utf8').split('\n');
for (let phase = 0; phase < 4; phase++) {
  const before = lines().length;
  const r = await autocannon({ url: `${base}/v1/chat/completions`, method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body, connections: 64, duration: 4 });
  const now = lines();
  const slice = now.slice(before - 1);
  console.log(`phase ${phase}: ${r.requests.total} req; completed optimizing ${slice.filter((l) => l.includes('completed optimizing')).length}, deopts ${slice.filter((l) => /bailout|deoptimiz/i.test(l)).length}`);
  if (phase >= 2) { const m = new Map(); for (const l of slice) { const x = /(completed optimizing|bailout[^:]*: [^)]*\)).*?<JSFunction ([^>]*)>/.exec(l); if (x) { const k = x[1].slice(0, 60) + " | " + x[2].replace(/0x[0-9a-f]+/, ""); m.set(k, (m.get(k) ?? 0) + 1); } } console.log([...m].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([k, v]) => v + " " + k).join("\n")); }
}
child.kill('SIGTERM'); await upstream.stop();
