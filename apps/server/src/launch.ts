import { nodeVersionProblem } from '../../../scripts/node-version.mjs';

// What dist/main.js runs (tsup.config.ts): the Node version first, then the server. The server
// comes in by a dynamic import so that nothing of it, nor of its dependencies, is loaded on a
// Node too old for them: they would fail to load with an error that names none of this.
const problem = nodeVersionProblem(process.version);
if (problem) {
  process.stderr.write(`One Hub cannot start: ${problem}\n`);
  process.exit(1);
}
await import('./main.js');
