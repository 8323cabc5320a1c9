import { runCli } from './cli.js';

// `npm run import -- …` (scripts/import.mjs runs the built dist/import.js): see cli.ts for the options.
const code = await runCli(process.argv.slice(2), process.env, { stdout: process.stdout, stderr: process.stderr });
process.exitCode = code;
