// Small tmpfs volumes for storage-fault tests (a full disk, a read-only remount). Mounting needs
// root with CAP_SYS_ADMIN; where either is missing, mountTmpfs gives null and canMount is false.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './vtr-process.js';

export const isRoot = process.getuid?.() === 0;
const mounted: string[] = [];

/** A fresh tmpfs of `size` at a new directory (unmounted by unmountAll), or null when this process may not mount. */
export function mountTmpfs(size: string): string | null {
  if (!isRoot) return null;
  const dir = join(tempDir(), 'mnt');
  mkdirSync(dir);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return null;
  }
  mounted.push(dir);
  return dir;
}

/** Unmounts every volume mountTmpfs made (for afterEach). */
export function unmountAll(): void {
  for (const dir of mounted.splice(0)) {
    try {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    } catch {
      // already gone
    }
  }
}

/** Whether this process may mount a tmpfs (tried once). */
export const canMount = (() => {
  const dir = mountTmpfs('64k');
  if (!dir) return false;
  unmountAll();
  return true;
})();
