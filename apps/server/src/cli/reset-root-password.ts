// Plain JavaScript shared with scripts/*.mjs, bundled into dist/reset-root-password.js.
import { readCommandLine, refuse } from '../../../../scripts/command-line.mjs';
import { COMMANDS } from '../../../../scripts/commands.mjs';
import { credentialsBanner } from '../api/account/bootstrap.js';
import { resetRootPassword } from '../api/account/reset-root.js';
import { ConfigError, loadConfig } from '../config.js';
import { migrateToLatest, openDatabase } from '../platform/db/index.js';

const { options: OPTIONS, usage: USAGE } = COMMANDS['reset-root-password'];

/**
 * `npm run reset-root-password [-- --username NAME]`: a new password for the root account of the
 * database the server is configured with (same environment as `npm start`), printed once.
 * Works whether the server is running or not. Exit code 0 on success (and for --help), 2 for an
 * option it does not know (nothing is changed), 1 with one line otherwise.
 */
export async function runResetRootPassword(
  args: string[],
  environment: Record<string, string | undefined>,
  out: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  const commandLine = readCommandLine(args, OPTIONS, USAGE, out);
  if (commandLine.exitCode !== undefined) return commandLine.exitCode;
  const username = commandLine.values.username as string | undefined;
  if (username !== undefined && !username.trim()) return refuse('error: --username needs a name', USAGE, out).exitCode;
  let handle: ReturnType<typeof openDatabase> | undefined;
  try {
    const config = loadConfig(environment);
    handle = openDatabase(config);
    await migrateToLatest(handle);
    const reset = await resetRootPassword(handle, username);
    const url = `http://localhost:${config.port}${config.basePath}`;
    out.stdout.write(
      credentialsBanner('New password set; every session of this account ended:', reset.username, reset.password, url),
    );
    return 0;
  } catch (error) {
    const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
    out.stderr.write(`reset-root-password: ${message}\n`);
    return 1;
  } finally {
    await handle?.close();
  }
}
