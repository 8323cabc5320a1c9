// Child-process entry: `node --import tsx bench/serve.ts upstream|passthrough [upstreamUrl]`.
// Prints the listening URL on stdout and serves until killed.
import { startPassthrough } from './passthrough.js';
import { startBenchUpstream } from './upstream.js';

const [kind, upstreamUrl = ''] = process.argv.slice(2);
const server = kind === 'upstream' ? await startBenchUpstream() : await startPassthrough(upstreamUrl);
process.stdout.write(`${server.url}\n`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
