// `npm start`: build the server and console when the build is missing or stale, then serve both on one port.
// package.json runs this with two V8 flags that bound the memory under load (see BENCHMARKS.md):
// `--max-semi-space-size=8`, a young generation half the default's (about 15 MB less at the peak,
// for about 5% more CPU per request; 4 saved 12 MB more but cost 10% more CPU than 8, because
// requests then outlived the collections of the young generation and filled the old one), and
// `--heap-growing-percent=20`, which lets the old
// generation grow by a fifth of what survived the last full collection before the next one,
// instead of up to 4 times: the peak no longer depends on when V8 happens to collect (137-166 MB
// before, 141-145 after, at the same requests/s).
import { fileURLToPath } from 'node:url';
import { ensureBuild } from './build-inputs.mjs';
import { readCommandLine } from './command-line.mjs';
import { COMMANDS } from './commands.mjs';
import { nodeVersionProblem } from './node-version.mjs';

// Before building: the build itself needs a current Node, and would fail on an old one with an
// error that does not say so.
const problem = nodeVersionProblem(process.version);
if (problem) {
  process.stderr.write(`One Hub cannot start: ${problem}\n`);
  process.exit(1);
}
const commandLine = readCommandLine(process.argv.slice(2), COMMANDS.start.options, COMMANDS.start.usage);
if (commandLine.exitCode !== undefined) process.exit(commandLine.exitCode);

// Builds on the first start, and again whenever the sources or the lockfile changed since the
// build on disk was made (after `git pull`, say): the old build never runs against new code.
ensureBuild(fileURLToPath(new URL('..', import.meta.url)));

await import(new URL('../apps/server/dist/main.js', import.meta.url).href);
