import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, open, rm, statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A small filesystem of its own, as a volume that can fill up: an ext4 image in a temporary
 * folder, mounted on a loop device (which takes root). `fill()` takes every free block with a
 * filler file and keeps taking what is freed, until `free()` deletes it.
 */
export interface SmallDisk {
  /** Where it is mounted. */
  readonly dir: string;
  /** Takes every free block and keeps the disk full until `free()`; resolves once a write to it is refused (ENOSPC). */
  fill(): Promise<void>;
  /** Stops filling and deletes the filler: the space comes back at once. */
  free(): Promise<void>;
  /** Unmounts it (lazily if something still holds it open) and removes the image; safe to call more than once. */
  remove(): Promise<void>;
}

/** How often a full disk is topped up again (what its user deleted meanwhile is taken back). */
const TOP_UP_MS = 50;

/** Why a small disk cannot be mounted here (not root, no loop device, no ext4, no mkfs.ext4 …), or null when it can: a trial mount of a tiny one. */
export async function smallDiskMissing(): Promise<string | null> {
  if (process.getuid?.() !== 0) return 'mounting a filesystem image takes root, and this process is not root';
  try {
    await (await mountSmallDisk(8)).remove();
    return null;
  } catch (error) {
    return `a filesystem image cannot be mounted here (${error instanceof Error ? error.message.trim().split('\n').at(-1) : String(error)})`;
  }
}

/** Mounts a new ext4 filesystem of `sizeMb` (4 KiB blocks, none reserved for root) in a temporary folder. */
export async function mountSmallDisk(sizeMb: number): Promise<SmallDisk> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'forum-small-disk-'));
  const image = path.join(folder, 'disk.img');
  const dir = path.join(folder, 'mnt');
  try {
    // others may enter it: PostgreSQL, which runs as its own user when this process is root
    await chmod(folder, 0o755);
    await run('truncate', ['-s', `${sizeMb}M`, image]);
    await run('mkfs.ext4', ['-q', '-F', '-b', '4096', '-m', '0', image]);
    await mkdir(dir);
    await run('mount', ['-o', 'loop', image, dir]);
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }

  const filler = path.join(dir, 'filler');
  let filling: { stop: boolean; done: Promise<void> } | null = null;
  let mounted = true;

  /** Writes zeros to the filler until the disk refuses a block; whether it took any. */
  const topUp = async (): Promise<boolean> => {
    const { bavail, bsize } = await statfs(dir);
    // fallocate takes most of it in one go; writes of a block take the rest until the disk says ENOSPC
    if (bavail > 64) await run('fallocate', ['-o', String(await sizeOf(filler)), '-l', String((bavail - 64) * bsize), filler]).catch(() => {});
    const handle = await open(filler, 'a');
    let took = false;
    try {
      for (;;) {
        await handle.write(Buffer.alloc(bsize));
        took = true;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    } finally {
      await handle.close().catch(() => {});
    }
    return took;
  };

  return {
    dir,
    async fill() {
      if (filling) return;
      await topUp();
      const state = { stop: false, done: Promise.resolve() };
      state.done = (async () => {
        while (!state.stop) {
          await new Promise((resolve) => setTimeout(resolve, TOP_UP_MS));
          if (!state.stop) await topUp();
        }
      })();
      filling = state;
    },
    async free() {
      if (filling) {
        filling.stop = true;
        await filling.done;
        filling = null;
      }
      await rm(filler, { force: true });
    },
    async remove() {
      if (filling) filling.stop = true;
      await filling?.done.catch(() => {});
      if (mounted) {
        mounted = false;
        // a process still in it (a server that outlived its test) must not leave the mount behind
        await run('umount', [dir]).catch(() => run('umount', ['-l', dir]));
      }
      await rm(folder, { recursive: true, force: true });
    },
  };
}

async function sizeOf(file: string): Promise<number> {
  const handle = await open(file, 'a');
  try {
    return (await handle.stat()).size;
  } finally {
    await handle.close();
  }
}
