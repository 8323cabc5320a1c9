// `npm run import -- --from <source> [--merge] [--batch N]`: imports a One Hub, one-api or new-api
// database into the one this server is configured with (the same environment as `npm start`:
// SQLITE_PATH, SQL_DSN, SESSION_SECRET…). Builds first when the build is missing or stale, as
// `npm start` does, then runs the importer (apps/server/src/import/main.ts).
import { fileURLToPath } from 'node:url';
import { ensureBuild } from './build-inputs.mjs';
import { readCommandLine } from './command-line.mjs';
import { COMMANDS } from './commands.mjs';

// The options first: --help, or a mistyped option, must not start a build before it is answered.
const { options, usage } = COMMANDS.import;
const commandLine = readCommandLine(process.argv.slice(2), options, usage);
if (commandLine.exitCode !== undefined) process.exit(commandLine.exitCode);

ensureBuild(fileURLToPath(new URL('..', import.meta.url)));
await import(new URL('../apps/server/dist/import.js', import.meta.url).href);
