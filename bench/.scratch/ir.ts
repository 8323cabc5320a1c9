// Instructions per request under callgrind: deterministic A/B on a busy machine.
// usage: node --import tsx bench/.scratch/ir.ts [onehub|passthrough] [ENV=V,...] [OPT=V,...]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startChild, startFlags, BENCH_ROOT_TOKEN } from '../processes.js';
import { callApi, prepareOneHub } from '../setup.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const target = process.argv[2] ?? 'onehub';
const env = Object.fromEntries((process.argv[3] ?? '').split(',').filter(Boolean).map((p) => p.split('=')));
const opts = (process.argv[4] ?? '').split(',').filter(Boolean).map((p) => p.split('='));
const N = Number(process.env.IR_REQUESTS ?? 3000);
const C = Number(process.env.IR_CONN ?? 16);
const dir = mkdtempSync(join(tmpdir(), 'ir-'));
const upstream = await startChild(process.execPath, ['--import', 'tsx', join(root, 'bench/serve.ts'), 'upstream'], {});
const port = 20_000 + Math.floor(Math.random() * 12_000);
const vg = ['--tool=callgrind', '--smc-check=all-non-file', '--instr-atstart=no', `--callgrind-out-file=${dir}/cg.%p`];
const args = target === 'passthrough'
  ? [...vg, process.execPath, ...(process.env.IR_FLAGS ?? '').split(' ').filter(Boolean), '--import', 'tsx', join(root, 'bench/serve.ts'), 'passthrough', upstream.url]
  : [...vg, process.execPath, ...startFlags(root), ...(process.env.IR_FLAGS ?? '').split(' ').filter(Boolean), join(root, 'apps/server/dist/main.js')];
const child = spawn('valgrind', args, {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SQLITE_PATH: join(dir, 'db.sqlite'), LOG_LEVEL: 'warn', INITIAL_ROOT_ACCESS_TOKEN: BENCH_ROOT_TOKEN, MAX_CONNECTIONS_PER_ADDRESS: '4096', ...env },
  stdio: ['ignore', 'pipe', 'ignore'],
});
let base = `http://127.0.0.1:${port}`;
if (target === 'passthrough') base = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim())));
else {
  for (let i = 0; i < 1200; i++) {
    if (await fetch(`${base}/api/status`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}
let headers: Record<string, string> = {};
if (target !== 'passthrough') {
  const key = await prepareOneHub(base, BENCH_ROOT_TOKEN, upstream.url);
  for (const [key2, value] of opts) await callApi(base, 'PUT', '/api/option/', { key: key2, value });
  headers = { authorization: `Bearer ${key}` };
}
const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] });
const run = (amount: number) => autocannon({ url: `${base}/v1/chat/completions`, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, connections: C, amount });
await run(Math.max(500, N / 2));
console.log(execFileSync('callgrind_control', ['-i', 'on', String(child.pid)], { env: { ...process.env, HOST: '127.0.0.1' } }).toString());
const r = await run(N);
console.log(execFileSync('callgrind_control', ['-d', String(child.pid)], { env: { ...process.env, HOST: '127.0.0.1' } }).toString()); await new Promise((r) => setTimeout(r, 2000));
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
await upstream.stop();
let total = 0;
console.log('DIR', dir);
for (const f of readdirSync(dir).filter((f) => f.startsWith('cg.'))) {
  for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
    const m = /^(summary|totals): (\d+)/.exec(line);
    if (m) { total += Number(m[2]); break; }
  }
}
const ok = r.requests.total - r.non2xx - r.errors;
console.log(`${target} ${JSON.stringify(env)} ${JSON.stringify(opts)}: ${ok} ok, ${r.non2xx + r.errors} errors; ${(total / r.requests.total / 1000).toFixed(1)} k instructions per request`);
