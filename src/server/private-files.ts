import { chmodSync, mkdirSync } from 'node:fs';

// What the server keeps on disk (DATA_DIR, the SQLite files, the development key, photos) is for
// its own user only. A mode given at creation is trimmed by the umask, never widened, so 0o700 and
// 0o600 hold whatever the umask; files SQLite creates itself are set explicitly.

/** Creates a directory (and any missing parents) readable by the owner only. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/**
 * Sets files to owner read/write only. A file that does not exist (yet) is skipped, and so is one
 * that belongs to another user (a database file an operator set up): the server still starts.
 */
export function makeOwnerOnly(...files: string[]): void {
  for (const file of files) {
    try {
      chmodSync(file, 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EPERM') throw error;
    }
  }
}
