// `npm run reset-root-password [-- --username NAME]`: sets and prints a new password for the root
// account, with the same environment (SQLITE_PATH, SQL_DSN…) as `npm start`. Builds first when needed.
import { fileURLToPath } from 'node:url';
import { ensureBuild } from './build-inputs.mjs';
import { readCommandLine } from './command-line.mjs';
import { COMMANDS } from './commands.mjs';

// The options first: --help, or a mistyped option, must not start a build before it is answered.
const { options, usage } = COMMANDS['reset-root-password'];
const commandLine = readCommandLine(process.argv.slice(2), options, usage);
if (commandLine.exitCode !== undefined) process.exit(commandLine.exitCode);

ensureBuild(fileURLToPath(new URL('..', import.meta.url)));
await import(new URL('../apps/server/dist/reset-root-password.js', import.meta.url).href);
