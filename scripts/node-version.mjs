// The oldest Node One Hub runs on: package.json's engines field (a test keeps the two the same).
// Checked first by `npm start` and by the built server (dist/main.js, what systemd and Docker
// run), so an older Node stops with one line saying what to install, instead of a syntax error or
// a missing export from deep inside a dependency. Plain JavaScript: `npm start` reads it before
// anything is built.
export const MINIMUM_NODE = '20.19.0';

const parts = (version) => {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  return match ? match.slice(1, 4).map(Number) : undefined;
};

/**
 * Why One Hub cannot run on Node `version` ("20.18.1" or "v20.18.1", as process.version), or
 * undefined when it can.
 */
export function nodeVersionProblem(version, minimum = MINIMUM_NODE) {
  const have = parts(version);
  const need = parts(minimum);
  if (!need) throw new Error(`not a Node version: ${minimum}`);
  // The first of major, minor and patch that differs decides; all equal is new enough.
  const differs = have?.findIndex((part, index) => part !== need[index]) ?? 0;
  const older = !have || (differs !== -1 && have[differs] < need[differs]);
  if (!older) return undefined;
  return (
    `Node ${version} is too old: One Hub needs Node ${minimum} or newer (package.json "engines"). ` +
    `Install a current Node (https://nodejs.org) and start One Hub with it; ` +
    `under systemd, see the PATH line of deploy/one-hub.service`
  );
}
