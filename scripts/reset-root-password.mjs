// `npm run reset-root-password [-- --username NAME]`: sets and prints a new password for the root
// account, with the same environment (SQLITE_PATH, SQL_DSN…) as `npm start`. Builds first when needed.
import { fileURLToPath } from 'node:url';
import { ensureBuild } from './build-inputs.mjs';

ensureBuild(fileURLToPath(new URL('..', import.meta.url)));
await import(new URL('../apps/server/dist/reset-root-password.js', import.meta.url).href);
