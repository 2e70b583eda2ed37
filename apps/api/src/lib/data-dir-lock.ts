import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

/**
 * PGlite is one process: a second PGlite opened on the same data folder starts without a word (its
 * postmaster.pid holds -42, which nothing checks) and the two overwrite each other's pages. So
 * whatever opens DATA_DIR/pglite (the server, `npm run migrate`, backup and restore) first takes
 * this lock: a file DATA_DIR/tourdesk.lock created with O_EXCL, holding the holder's pid, host and
 * purpose, and touched by its holder every HEARTBEAT_MS. A lock whose process is gone (killed, the
 * machine restarted) is taken over; so is one of another host (a container recreated with a new
 * name on the same volume) untouched for STALE_MS, since its processes cannot be checked from here.
 * One held by a live process, or touched lately, is refused.
 */
export const LOCK_FILE = 'tourdesk.lock';
const HEARTBEAT_MS = 10_000;
const STALE_MS = 60_000;

export class DataDirLockedError extends Error {}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

interface Holder {
  pid: number;
  host: string;
  purpose: string;
  since: string;
}

/** The locks this process holds, by file: the same pid in a lock file not listed here is a former process (a container restarted with the same pid). */
const held = new Set<string>();

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function readHolder(file: string): Holder | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>;
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, host: String(parsed.host ?? ''), purpose: String(parsed.purpose ?? ''), since: String(parsed.since ?? '') } : null;
  } catch {
    return null;
  }
}

/** How long ago the lock file was last touched, in ms (0 when it cannot be read). */
function untouchedFor(file: string) {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

const sameHolder = (a: Holder | null, b: Holder) => a !== null && a.pid === b.pid && a.host === b.host && a.since === b.since;

/** Moves the stale lock `holder` out of the way; a lock that proves to be another one is put back. */
function takeAway(file: string, holder: Holder) {
  const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(file, aside);
  } catch {
    return; // Another taker moved it first.
  }
  if (!sameHolder(readHolder(aside), holder)) {
    // A fresh lock another taker made after reading the same stale one: give it back (link fails
    // only if yet another lock exists already, which then holds).
    try {
      linkSync(aside, file);
    } catch {
      // Left to the lock that is there.
    }
  }
  rmSync(aside, { force: true });
}

/** Takes DATA_DIR's lock for `purpose` (e.g. "the server"), or throws DataDirLockedError naming who holds it. */
export function lockDataDir(dataDir: string, purpose: string): DataDirLock {
  const file = path.join(dataDir, LOCK_FILE);
  const me: Holder = { pid: process.pid, host: hostname(), purpose, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o644);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(file);
      const stale =
        holder === null
          ? false
          : holder.host === me.host
            ? holder.pid === process.pid
              ? !held.has(file)
              : !alive(holder.pid)
            : untouchedFor(file) > STALE_MS;
      if (!stale) {
        const who = holder ? `${holder.purpose || 'a process'} (pid ${holder.pid} on ${holder.host}, since ${holder.since})` : 'another process (the lock file is being written or unreadable)';
        throw new DataDirLockedError(
          `The data folder ${dataDir} is in use by ${who}. Stop the server first: PGlite allows one process at a time. ` +
            `If that process is surely gone, remove ${file}.`,
        );
      }
      // Stale: its process is gone. Take it away atomically (rename), and only if what was taken is
      // the stale lock read above: two takers that both read it must not both win, the second
      // removing the lock the first has just made. Then try again (another taker may win O_EXCL).
      takeAway(file, holder!);
      continue;
    }
    try {
      writeSync(fd, JSON.stringify(me));
    } finally {
      closeSync(fd);
    }
    held.add(file);
    const heartbeat = setInterval(() => {
      try {
        const now = new Date();
        if (readHolder(file)?.pid === process.pid) utimesSync(file, now, now);
      } catch {
        // The folder is gone (a test's, removed): nothing to keep.
      }
    }, HEARTBEAT_MS);
    heartbeat.unref();
    const onExit = () => release();
    const release = () => {
      if (!held.delete(file)) return;
      clearInterval(heartbeat);
      process.off('exit', onExit);
      // Only our own lock is removed (a stale-lock taker may have replaced it).
      if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
    };
    process.on('exit', onExit);
    return { file, release };
  }
  throw new DataDirLockedError(`Could not take the lock ${file}: other processes keep taking it.`);
}
