import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { randomString } from '../crypto.js';

/**
 * A journal directory holds one numbered slot per process writing into it: `<n>/` with its
 * segments and `<n>.lock` naming the process that owns it. Workers of one server, and nodes that
 * happen to share a data folder, each take a slot of their own; a slot whose owner is gone (it
 * was killed, or the machine restarted) is taken over and its journal replayed.
 */

/** Slots held by this process (two servers in one process, as tests build them, must not share). */
const heldHere = new Set<string>();

export interface Slot {
  directory: string;
  index: number;
  release(): void;
}

/** The slot's owner is a live process other than this one, or this process holds it already. */
function heldByOther(lockPath: string): boolean {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  // A container restarts its process under the same pid: a lock with our own pid that this process
  // did not take is a previous life's.
  if (pid === process.pid) return heldHere.has(lockPath);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes `<root>/<index>` for this process, or answers undefined when a live process holds it. */
function tryClaim(root: string, index: number): Slot | undefined {
  const lockPath = join(root, `${index}.lock`);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldHere.add(lockPath);
      const directory = join(root, String(index));
      mkdirSync(directory, { recursive: true });
      return {
        directory,
        index,
        release: () => {
          heldHere.delete(lockPath);
          rmSync(lockPath, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (heldByOther(lockPath)) return undefined;
    // A stale lock: moved aside atomically, so of two processes taking it over only one succeeds.
    const aside = `${lockPath}.stale-${randomString(6)}`;
    try {
      renameSync(lockPath, aside);
      unlinkSync(aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return undefined;
}

/** The lowest free slot, created if need be. */
export function claimSlot(root: string): Slot {
  mkdirSync(root, { recursive: true });
  for (let index = 0; index < 10_000; index++) {
    const slot = tryClaim(root, index);
    if (slot) return slot;
  }
  throw new Error(`no free journal slot in ${root}`);
}

/**
 * Slots left by processes that are gone (other than `own`), each claimed for the caller, which
 * replays and releases it. Slots of live processes are left to them.
 */
export function claimAbandonedSlots(root: string, own: Slot): Slot[] {
  const claimed: Slot[] = [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return claimed;
  }
  // A slot is its folder and its lock; either may be left without the other.
  const indexes = new Set(
    names.map((name) => /^(\d+)(\.lock)?$/.exec(name)?.[1]).filter((index) => index !== undefined),
  );
  for (const index of indexes) {
    if (Number(index) === own.index) continue;
    const slot = tryClaim(root, Number(index));
    if (slot) claimed.push(slot);
  }
  return claimed;
}
