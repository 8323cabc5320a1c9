// The deployment files (Dockerfile, docker-compose.yml, deploy/) and `npm run backup`. Docker
// cannot pull base images on the machines that run these tests, so the Dockerfile is checked by
// reading it: the rules a build relies on, and that its commands are the ones CI runs.
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../apps/server/src/config.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const rootPackage = JSON.parse(read('package.json')) as {
  workspaces: string[];
  engines: { node: string };
  scripts: Record<string, string>;
};

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  base: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** Instructions with continuation lines joined and comments dropped; ARG defaults substituted in FROM. */
function parseDockerfile(text: string): { stages: Stage[] } {
  const logical: string[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    const continued = /\\\s*$/.test(line);
    pending += `${line.replace(/\\\s*$/, '').trim()} `;
    if (continued) continue;
    if (pending.trim()) logical.push(pending.trim());
    pending = '';
  }
  const args = new Map<string, string>();
  const stages: Stage[] = [];
  for (const line of logical) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const text = rest.join(' ');
    const upper = keyword.toUpperCase();
    if (upper === 'ARG' && stages.length === 0) {
      const [name = '', value = ''] = text.split('=');
      args.set(name, value);
    } else if (upper === 'FROM') {
      const [image = '', as, name] = text.replace(/\$\{(\w+)\}/g, (_, arg: string) => args.get(arg) ?? '').split(/\s+/);
      stages.push({ base: image, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ keyword: upper, args: text });
    }
  }
  return { stages };
}

const dockerfile = parseDockerfile(read('Dockerfile'));
const stageNamed = (name: string) => dockerfile.stages.find((stage) => stage.name === name);
const runtime = dockerfile.stages.at(-1) as Stage;
const inStage = (stage: Stage, keyword: string) => stage.instructions.filter((entry) => entry.keyword === keyword);

/** A stage's instructions, those of the stages it is built FROM first. */
function lineage(stage: Stage): Instruction[] {
  const parent = stageNamed(stage.base);
  return [...(parent ? lineage(parent) : []), ...stage.instructions];
}

/** `npm ci --omit=dev --workspace apps/server` → `npm ci`; `npm run build` stays as it is. */
function npmCommand(command: string): string {
  const words = command.trim().split(/\s+/);
  return words[1] === 'run' ? words.slice(0, 3).join(' ') : words.slice(0, 2).join(' ');
}

const ciNpmCommands = read('.ci/run')
  .split('\n')
  .filter((line) => /^\s*npm\s/.test(line))
  .map(npmCommand);

/** The package.json files a workspace pattern (`apps/*`) names. */
function workspaceManifests(pattern: string): string[] {
  const folder = pattern.replace(/\/\*$/, '');
  return readdirSync(join(root, folder))
    .filter((name) => existsSync(join(root, folder, name, 'package.json')))
    .map((name) => `${folder}/${name}/package.json`);
}

/** The V8 flags `npm start` runs the server with. */
const startFlags = (rootPackage.scripts.start ?? '').split(/\s+/).filter((word) => word.startsWith('--'));

describe('the lockfile', () => {
  it("holds every optional dependency's entry, so npm ci on another platform finds its binary", () => {
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { optionalDependencies?: Record<string, string> }>;
    };
    let checked = 0;
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        // npm looks for a dependency beside the package, then in each node_modules above it.
        const candidates = [`${path ? `${path}/` : ''}node_modules/${name}`];
        for (let at = path.lastIndexOf('/node_modules/'); at !== -1; at = path.lastIndexOf('/node_modules/', at - 1)) {
          candidates.push(`${path.slice(0, at)}/node_modules/${name}`);
        }
        candidates.push(`node_modules/${name}`);
        expect(
          candidates.some((candidate) => candidate in lock.packages),
          `${name}, optional dependency of ${path}`,
        ).toBe(true);
        checked += 1;
      }
    }
    expect(Object.keys(lock.packages)).toContain('node_modules/@biomejs/cli-linux-x64');
    expect(checked).toBeGreaterThan(10);
  });
});

describe('the Dockerfile', () => {
  it('installs with npm ci and builds with npm run build, as CI does, and nothing else', () => {
    expect(ciNpmCommands).toContain('npm ci');
    expect(ciNpmCommands).toContain('npm run build');
    const npmRuns = dockerfile.stages.flatMap((stage) =>
      inStage(stage, 'RUN')
        .map((entry) => (entry.args.split('&&')[0] ?? '').trim())
        .filter((command) => /^npm\s/.test(command)),
    );
    expect(npmRuns.length).toBeGreaterThan(0);
    for (const command of npmRuns) {
      // Pinning npm itself to the version CI uses is the one extra step.
      if (/^npm install -g npm@\d+\.\d+\.\d+$/.test(command)) continue;
      expect(ciNpmCommands, command).toContain(npmCommand(command));
      if (npmCommand(command) === 'npm ci') {
        const flags = command.split(/\s+/).slice(2);
        for (const flag of flags) {
          expect(['--omit=dev', '--omit=optional', '--workspace', 'apps/server'], command).toContain(flag);
        }
      }
    }
  });

  it('copies the lockfile and every workspace package.json before npm ci', () => {
    const workspaces = rootPackage.workspaces.flatMap(workspaceManifests);
    expect(workspaces.length).toBeGreaterThanOrEqual(3);
    for (const stage of dockerfile.stages) {
      const steps = lineage(stage);
      const firstCi = steps.findIndex((entry) => entry.keyword === 'RUN' && /^npm ci\b/.test(entry.args));
      if (firstCi === -1) continue;
      const copied = steps
        .slice(0, firstCi)
        .filter((entry) => entry.keyword === 'COPY')
        .flatMap((entry) => entry.args.split(/\s+/).slice(0, -1));
      for (const file of ['package.json', 'package-lock.json', ...workspaces])
        expect(copied, stage.name).toContain(file);
    }
  });

  it('ships no development tool: the run-time install omits every devDependency, and TypeScript', () => {
    const install = stageNamed('server-packages');
    const command = inStage(install as Stage, 'RUN').find((entry) => /^npm ci\b/.test(entry.args))?.args ?? '';
    expect(command).toMatch(/^npm ci --omit=dev --omit=optional --workspace apps\/server\b/);
    // npm leaves a package out under those flags when the lockfile marks it dev, optional or
    // devOptional; one that a run-time package needs for real carries none of these marks.
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { dev?: boolean; optional?: boolean; devOptional?: boolean }>;
    };
    const manifests = ['package.json', ...rootPackage.workspaces.flatMap(workspaceManifests)];
    const tools = manifests.flatMap((file) =>
      Object.keys((JSON.parse(read(file)) as { devDependencies?: object }).devDependencies ?? {}),
    );
    expect(tools).toEqual(expect.arrayContaining(['typescript', 'vitest', '@biomejs/biome']));
    // Type declarations are inert files, and some run-time packages list them as dependencies
    // (mysql2 and stripe need @types/node): they are not tools.
    // ajv: the tests use it directly, and Fastify needs it at run time anyway.
    const runTimeAnyway = new Set(['ajv']);
    const shipped = tools.filter((name) => {
      if (name.startsWith('@types/') || runTimeAnyway.has(name)) return false;
      const entry = lock.packages[`node_modules/${name}`];
      return entry && !entry.dev && !entry.optional && !entry.devOptional;
    });
    expect(shipped).toEqual([]);
    // better-sqlite3 keeps its compiled binding only, not the sources it was built from.
    expect(command).toMatch(/cd node_modules\/better-sqlite3 && rm -rf deps src build\/Release\/obj /);
  });

  it('builds from the whole source after the install', () => {
    const builders = dockerfile.stages.filter((stage) =>
      inStage(stage, 'RUN').some((entry) => entry.args === 'npm run build'),
    );
    expect(builders).toHaveLength(1);
    const steps = lineage(builders[0] as Stage).map((entry) => `${entry.keyword} ${entry.args}`);
    expect(steps.indexOf('COPY . .')).toBeGreaterThan(steps.indexOf('RUN npm ci'));
    expect(steps.indexOf('RUN npm run build')).toBeGreaterThan(steps.indexOf('COPY . .'));
  });

  it('runs as a non-root user with /app/data in a volume, port 3000 and a health check on /api/status', () => {
    expect(dockerfile.stages.length).toBeGreaterThanOrEqual(3);
    const users = inStage(runtime, 'USER').map((entry) => entry.args);
    expect(users.length).toBeGreaterThan(0);
    expect(['root', '0', '0:0']).not.toContain(users.at(-1));
    expect(inStage(runtime, 'WORKDIR').map((entry) => entry.args)).toEqual(['/app']);
    expect(inStage(runtime, 'VOLUME').map((entry) => entry.args)).toContain('/app/data');
    expect(inStage(runtime, 'EXPOSE').map((entry) => entry.args)).toContain('3000');
    const [healthcheck] = inStage(runtime, 'HEALTHCHECK');
    expect(healthcheck?.args).toContain('/api/status');
    expect(healthcheck?.args).toContain('process.env.PORT');
    // The data folder is made the user's before the volume is declared, so a new volume starts so.
    const order = runtime.instructions.map((entry) => entry.keyword);
    expect(runtime.instructions.some((entry) => entry.keyword === 'RUN' && /chown \S+ data/.test(entry.args))).toBe(
      true,
    );
    expect(order.indexOf('VOLUME')).toBeGreaterThan(order.indexOf('RUN'));
  });

  it('starts the built server with the flags npm start uses, and holds what that start needs', () => {
    expect(startFlags.length).toBeGreaterThan(0);
    const [command] = inStage(runtime, 'CMD');
    const words = JSON.parse(command?.args ?? '[]') as string[];
    expect(words).toEqual(['node', ...startFlags, 'apps/server/dist/main.js']);

    const copies = inStage(runtime, 'COPY').map((entry) => entry.args.split(/\s+/));
    const from = (path: string) => {
      const copy = copies.find((words) => words.at(-1)?.replace(/\/$/, '') === path);
      return stageNamed(copy?.[0]?.replace('--from=', '') ?? '');
    };
    const builder = from('apps/server/dist');
    expect(builder && lineage(builder).some((entry) => entry.args === 'npm run build')).toBe(true);
    // main.ts serves the console from ../../web/dist beside its own file.
    expect(read('apps/server/src/main.ts')).toContain("new URL('../../web/dist', import.meta.url)");
    expect(from('apps/web/dist')).toBe(builder);

    // node_modules and apps/server/package.json (type: module) come with the whole /app of a
    // stage that installed the production packages.
    const whole = copies.find((words) => words[1] === '/app' && words[2] === './');
    const packages = stageNamed(whole?.[0]?.replace('--from=', '') ?? '');
    expect(packages).toBeDefined();
    const steps = lineage(packages as Stage);
    expect(steps.some((entry) => entry.keyword === 'RUN' && /^npm ci --omit=dev\b/.test(entry.args))).toBe(true);
    expect(steps.some((entry) => entry.keyword === 'COPY' && entry.args.startsWith('apps/server/package.json '))).toBe(
      true,
    );
    // `docker exec … node scripts/backup.mjs`: the script and every script it imports.
    const backupCopy = copies.find((words) => words[0] === 'scripts/backup.mjs');
    expect(backupCopy?.at(-1)).toBe('scripts/');
    const imported = [...read('scripts/backup.mjs').matchAll(/from '\.\/([\w.-]+)'/g)].map((match) => match[1]);
    expect(imported).toEqual(expect.arrayContaining(['command-line.mjs', 'commands.mjs']));
    for (const name of imported) expect(backupCopy).toContain(`scripts/${name}`);
  });

  it('uses a Node version that the engines field allows', () => {
    const version = /node:(\d+)\.(\d+)/.exec(runtime.base);
    const minimum = /^>=(\d+)\.(\d+)$/.exec(rootPackage.engines.node);
    expect(version && minimum).toBeTruthy();
    const [major, minor] = [Number(version?.[1]), Number(version?.[2])];
    const [needMajor, needMinor] = [Number(minimum?.[1]), Number(minimum?.[2])];
    expect(major > needMajor || (major === needMajor && minor >= needMinor)).toBe(true);
  });

  it('leaves installed packages, builds, the data folder and secrets out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    for (const entry of ['**/node_modules', '**/dist', 'data', '.git', '.env']) expect(ignored).toContain(entry);
  });
});

/** `services.<service>.<key>` of docker-compose.yml as its lines, read by indentation. */
function composeBlock(text: string, service: string, key: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(`  ${service}:`);
  expect(start, service).toBeGreaterThan(-1);
  const end = lines.findIndex((line, index) => index > start && /^ {0,2}\S/.test(line));
  const body = lines.slice(start + 1, end === -1 ? undefined : end);
  const keyAt = body.indexOf(`    ${key}:`);
  if (keyAt === -1) return [];
  const after = body.slice(keyAt + 1);
  const stop = after.findIndex((line) => /^ {0,4}\S/.test(line));
  return after.slice(0, stop === -1 ? undefined : stop).filter((line) => !/^\s*#/.test(line) && line.trim());
}

describe('docker-compose.yml', () => {
  const compose = read('docker-compose.yml');

  it('starts One Hub after healthy PostgreSQL and Redis, with its data in a named volume', () => {
    expect(composeBlock(compose, 'one-hub', 'depends_on').join('\n')).toMatch(
      /postgres:\n\s+condition: service_healthy\n\s+redis:\n\s+condition: service_healthy/,
    );
    expect(composeBlock(compose, 'postgres', 'healthcheck').join('\n')).toContain('pg_isready');
    expect(composeBlock(compose, 'redis', 'healthcheck').join('\n')).toContain('redis-cli');
    expect(composeBlock(compose, 'one-hub', 'volumes')).toContain('      - one-hub-data:/app/data');
    expect(compose).toMatch(/^volumes:\n {2}one-hub-data:\n {2}postgres-data:\n {2}redis-data:/m);
  });

  it('sets variables the server reads, with values it accepts', () => {
    const environment = Object.fromEntries(
      composeBlock(compose, 'one-hub', 'environment').map((line) => {
        const [name = '', ...value] = line.trim().split(': ');
        return [name, value.join(': ').replace(/\$\{POSTGRES_PASSWORD:\?[^}]*\}/, 'secret')];
      }),
    );
    expect(Object.keys(environment).sort()).toEqual(['REDIS_CONN_STRING', 'SQL_DSN']);
    const configSource = read('apps/server/src/config.ts');
    for (const name of Object.keys(environment)) expect(configSource).toContain(`  ${name}: `);
    const dataDir = mkdtempSync(join(tmpdir(), 'one-hub-compose-'));
    try {
      const config = loadConfig({ ...environment, SQLITE_PATH: join(dataDir, 'one-hub.db') });
      expect(config.sqlDsn).toBe('postgres://onehub:secret@postgres:5432/onehub');
      expect(config.redisUrl).toBe('redis://redis:6379');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('deploy/', () => {
  it('systemd: a dedicated user, restarts on failure, writes only the data folder, starts like the image', () => {
    const unit = read('deploy/one-hub.service');
    const setting = (name: string) =>
      unit
        .split('\n')
        .filter((line) => line.startsWith(`${name}=`))
        .map((line) => line.slice(name.length + 1));
    expect(setting('User')).toHaveLength(1);
    expect(['', 'root']).not.toContain(setting('User')[0]);
    expect(setting('Restart')).toEqual(['on-failure']);
    expect(setting('NoNewPrivileges')).toEqual(['yes']);
    expect(setting('ProtectSystem')).toEqual(['strict']);
    expect(setting('EnvironmentFile')).toHaveLength(1);
    const [workingDirectory] = setting('WorkingDirectory');
    expect(setting('ReadWritePaths')).toEqual([`${workingDirectory}/data`]);
    expect(setting('ExecStart')[0]).toMatch(new RegExp(` ${startFlags.join(' ')} apps/server/dist/main\\.js$`));
    // Not a fixed /usr/bin/node, often older than engines asks: node from the unit's PATH, where a
    // Node installed under /usr/local comes before the distribution's (the server checks the version).
    expect(setting('ExecStart')[0]).toMatch(/^\/usr\/bin\/env node /);
    const path = setting('Environment')
      .filter((value) => value.startsWith('PATH='))
      .map((value) => value.slice('PATH='.length).split(':'));
    expect(path).toHaveLength(1);
    expect(path[0]?.indexOf('/usr/local/bin')).toBeGreaterThan(-1);
    expect(path[0]?.indexOf('/usr/local/bin')).toBeLessThan(path[0]?.indexOf('/usr/bin') ?? -1);
    // V8 compiles code at run time; this setting would stop it.
    expect(setting('MemoryDenyWriteExecute')).toEqual([]);
  });

  it('nginx: no buffering, long reads, forwarded headers, and every API path under a sub-path', () => {
    const conf = read('deploy/nginx.conf');
    const active = conf
      .split('\n')
      .filter((line) => !/^\s*#/.test(line))
      .join('\n');
    expect(active).toMatch(/server 127\.0\.0\.1:3000;/);
    expect(active).toMatch(/proxy_buffering off;/);
    expect(active).toMatch(/proxy_request_buffering off;/);
    expect(active).toMatch(/proxy_set_header X-Forwarded-For /);
    expect(active).toMatch(/proxy_set_header X-Forwarded-Proto \$scheme;/);
    const readTimeout = Number(/proxy_read_timeout (\d+)s;/.exec(active)?.[1]);
    expect(readTimeout * 1000).toBeGreaterThan(
      loadConfig({ SESSION_SECRET: 'x'.repeat(16) }).upstreamTimeouts.answerMs,
    );
    expect(Number(/client_max_body_size (\d+)m;/.exec(active)?.[1]) * 2 ** 20).toBeGreaterThan(
      loadConfig({ SESSION_SECRET: 'x'.repeat(16) }).bodyLimitBytes,
    );
    // The sub-path example forwards every path the APIs answer on (http/console.ts).
    const prefixes = /API_PREFIXES = \[([^\]]+)\]/.exec(read('apps/server/src/http/console.ts'))?.[1] ?? '';
    const names = [...prefixes.matchAll(/'\/([\w-]+)\/'/g)].map((match) => match[1]);
    expect(names.length).toBeGreaterThan(3);
    const forwarded = /location ~ \^\/\(([\w|-]+)\)/.exec(conf)?.[1]?.split('|') ?? [];
    expect(forwarded.sort()).toEqual(names.sort());
    // The realtime WebSocket gets the upgrade passed on.
    const realtime = /location \/v1\/realtime \{([^}]+)\}/.exec(active)?.[1] ?? '';
    expect(realtime).toMatch(/proxy_set_header Upgrade \$http_upgrade;/);
    expect(realtime).toMatch(/proxy_set_header Connection "upgrade";/);
  });
});

describe('npm run backup', () => {
  let folder = '';
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  /** A database in WAL mode whose rows are all still in the -wal file, as on a running server. */
  function liveDatabase() {
    folder = mkdtempSync(join(tmpdir(), 'one-hub-backup-'));
    const dataDir = join(folder, 'data');
    const path = join(dataDir, 'one-hub.db');
    mkdirSync(dataDir);
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('create table rows (id integer primary key, note text not null)');
    const insert = db.prepare('insert into rows (note) values (?)');
    db.transaction(() => {
      for (let index = 0; index < 1000; index += 1) insert.run(`row ${index}`);
    })();
    writeFileSync(join(dataDir, 'session-secret'), 'a-session-secret-of-the-server\n', { mode: 0o600 });
    return { db, path, dataDir, insert };
  }

  function runBackup(args: string[], env: Record<string, string>) {
    const child = spawn(process.execPath, [join(root, 'scripts/backup.mjs'), ...args], {
      cwd: folder,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const done = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
    return { done, output: () => output };
  }

  it('copies a live WAL database consistently while it is written to, with the session secret', async () => {
    const { db, path, insert } = liveDatabase();
    // What copying the file by hand would get: the rows are only in the -wal file so far.
    copyFileSync(path, join(folder, 'by-hand.db'));
    const byHand = new Database(join(folder, 'by-hand.db'), { readonly: true });
    expect(byHand.prepare("select count(*) as n from sqlite_master where name = 'rows'").get()).toEqual({ n: 0 });
    byHand.close();

    const target = join(folder, 'copies', 'copy.db');
    const backup = runBackup(['--to', target], { SQLITE_PATH: path });
    let exited = false;
    void backup.done.then(() => {
      exited = true;
    });
    // Keep writing while the backup runs (bounded: at most 5000 more rows).
    for (let batch = 0; batch < 500 && !exited; batch += 1) {
      db.transaction(() => {
        for (let index = 0; index < 10; index += 1) insert.run(`later ${batch}.${index}`);
      })();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await backup.done, backup.output()).toBe(0);
    const written = (db.prepare('select count(*) as n from rows').get() as { n: number }).n;
    db.close();

    const copy = new Database(target, { readonly: true });
    const { n, last } = copy.prepare('select count(*) as n, max(id) as last from rows').get() as {
      n: number;
      last: number;
    };
    expect(n).toBeGreaterThanOrEqual(1000);
    expect(n).toBeLessThanOrEqual(written);
    // A snapshot: whole transactions only (batches of 10 after the first 1000), no gaps.
    expect(last).toBe(n);
    expect((n - 1000) % 10).toBe(0);
    expect(copy.pragma('quick_check', { simple: true })).toBe('ok');
    expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
    copy.close();
    expect(existsSync(`${target}-wal`)).toBe(false);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readFileSync(`${target}.session-secret`, 'utf8')).toBe('a-session-secret-of-the-server\n');
    expect(statSync(`${target}.session-secret`).mode & 0o777).toBe(0o600);
    expect(backup.output()).toContain(`Database copied to ${target}`);
  });

  it('names a file in data/backups by default, and never overwrites one', async () => {
    const { db, path, dataDir } = liveDatabase();
    const first = runBackup([], { SQLITE_PATH: path });
    expect(await first.done, first.output()).toBe(0);
    const made = readdirSync(join(dataDir, 'backups'));
    expect(made.filter((name) => /^one-hub-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.db$/.test(name))).toHaveLength(1);
    expect(statSync(join(dataDir, 'backups')).mode & 0o777).toBe(0o700);

    const existing = join(folder, 'taken.db');
    writeFileSync(existing, 'keep me');
    const again = runBackup(['--to', existing], { SQLITE_PATH: path });
    expect(await again.done).toBe(1);
    expect(again.output()).toContain('already exists');
    expect(readFileSync(existing, 'utf8')).toBe('keep me');
    db.close();
  });

  it('says what to do instead for PostgreSQL or MySQL, a missing database and a wrong option', async () => {
    const { db, path } = liveDatabase();
    db.close();
    const server = runBackup([], { SQLITE_PATH: path, SQL_DSN: 'postgres://one:hub@db/onehub' });
    expect(await server.done).toBe(2);
    expect(server.output()).toContain('pg_dump or mysqldump');
    expect(server.output()).not.toContain('one:hub');

    const missing = runBackup([], { SQLITE_PATH: join(folder, 'nowhere', 'one-hub.db') });
    expect(await missing.done).toBe(1);
    expect(missing.output()).toContain('SQLITE_PATH: no database at');
    expect(existsSync(join(folder, 'nowhere'))).toBe(false);

    const wrong = runBackup(['--into', 'x.db'], { SQLITE_PATH: path });
    expect(await wrong.done).toBe(2);
    expect(wrong.output()).toContain('error: unknown option --into');
    expect(wrong.output()).toContain('Usage: npm run backup [-- --to FILE]');
  });
});
