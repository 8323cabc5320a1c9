// What a build is made from, and whether the build on disk was made from what is here now.
// `npm run build` stamps the build with a digest of its inputs; `npm start` (and the importer)
// rebuild when the stamp is missing or differs, so `git pull && npm install && npm start` never
// runs the old build against new sources.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folders and files whose content makes the build, relative to the project root. */
export const BUILD_INPUTS = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'packages/contracts',
  'apps/server/package.json',
  'apps/server/tsconfig.json',
  'apps/server/tsup.config.ts',
  'apps/server/src',
  'apps/web',
  // Plain JavaScript that the server's tools and launcher bundle (and the scripts read directly).
  'scripts/command-line.mjs',
  'scripts/commands.mjs',
  'scripts/node-version.mjs',
];

/** Never part of a build: outputs, installed packages, and tests. */
const SKIPPED_NAMES = new Set(['dist', 'node_modules', 'coverage', '.vite']);
const isTest = (name) => /\.test\.tsx?$/.test(name);

/** The build outputs `npm start` serves; the stamp sits beside the server's. */
export const BUILD_OUTPUTS = ['apps/server/dist/main.js', 'apps/web/dist/index.html'];
export const STAMP = 'apps/server/dist/build-inputs.sha256';

function listFiles(root, path, files) {
  const full = join(root, path);
  if (!existsSync(full)) return;
  for (const entry of readdirSync(full, { withFileTypes: true })) {
    if (SKIPPED_NAMES.has(entry.name) || isTest(entry.name)) continue;
    const child = join(path, entry.name);
    if (entry.isDirectory()) listFiles(root, child, files);
    else if (entry.isFile()) files.push(child);
  }
}

/** SHA-256 over every input file's path and content, in a fixed order. */
export function inputDigest(root, inputs = BUILD_INPUTS) {
  const files = [];
  for (const input of inputs) {
    const full = join(root, input);
    if (!existsSync(full)) continue;
    if (statSync(full).isDirectory()) listFiles(root, input, files);
    else files.push(input);
  }
  const hash = createHash('sha256');
  for (const file of files.map((name) => relative(root, join(root, name)).split(sep).join('/')).sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Why the build must be made again, or undefined when the one on disk matches the sources. */
export function staleReason(root) {
  if (BUILD_OUTPUTS.some((output) => !existsSync(join(root, output)))) return 'No build found';
  const stamp = join(root, STAMP);
  if (!existsSync(stamp)) return 'The build has no record of its sources';
  if (readFileSync(stamp, 'utf8').trim() !== inputDigest(root)) return 'The sources changed since the last build';
  return undefined;
}

export function writeStamp(root) {
  writeFileSync(join(root, STAMP), `${inputDigest(root)}\n`);
}

/** Builds (and stamps) when the build is missing or stale; exits the process if the build fails. */
export function ensureBuild(root) {
  const reason = staleReason(root);
  if (!reason) return;
  console.log(`${reason}; building One Hub (about a minute)...`);
  const build = spawnSync('npm', ['run', 'build'], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// `node scripts/build-inputs.mjs --stamp`: the last step of `npm run build`.
const self = fileURLToPath(import.meta.url);
if (process.argv[1] && resolve(process.argv[1]) === self && process.argv.includes('--stamp')) {
  writeStamp(resolve(self, '../..'));
}
