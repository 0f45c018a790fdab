import { loadConfig } from '../config';
import { createContext } from '../create-context';
import { KeyRotationError, rotateMasterKey, type RotationReport } from '../keys/rotate';

const KEYS_USAGE = 'Usage: jotline keys rotate   (re-encrypt everything from MASTER_KEY_PREVIOUS under MASTER_KEY, while the service runs)';

/** How often a running rotation says how far it got. */
const PROGRESS_EVERY_USERS = 500;

function summary(report: RotationReport): string[] {
  const { counts } = report;
  const lines = [
    `Re-encrypted for ${counts.users} users: ${counts.entries} entries, ${counts.photoNames} photo names, ${counts.photoFiles} photo files (thumbnails included), ${counts.messages} message bodies; ${counts.secrets} stored secrets.`,
  ];
  if (counts.unreadable > 0) {
    lines.push(`${counts.unreadable} values decrypted with neither key and were left as they were (encrypted under some other key, or damaged).`);
  }
  return lines;
}

/** `jotline keys rotate`: exit 0 when finished, 1 when it could not run or was stopped (run it again to resume). */
export async function keysCommand(args: readonly string[]): Promise<void> {
  if (args.length !== 1 || args[0] !== 'rotate') {
    console.error(KEYS_USAGE);
    process.exitCode = 2;
    return;
  }
  const { ctx, close } = await createContext(loadConfig());
  const stop = new AbortController();
  const onSignal = () => {
    console.error('Stopping after the user (or batch of texts) in hand…');
    stop.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const report = await rotateMasterKey(ctx, {
      signal: stop.signal,
      onProgress: ({ phase, counts }) => {
        if (phase === 'users' && counts.users % PROGRESS_EVERY_USERS === 0) console.log(`  ${counts.users} users re-encrypted…`);
      },
    });
    const keys = `key ${report.fromKeyId} to key ${report.toKeyId}`;
    if (report.alreadyFinished) {
      console.log(`The rotation from ${keys} was already finished: everything is under key ${report.toKeyId}. MASTER_KEY_PREVIOUS can be removed.`);
      return;
    }
    console.log(report.resumedAfterUser === null ? `Rotated from ${keys}.` : `Resumed the rotation from ${keys}.`);
    for (const line of summary(report)) console.log(line);
    if (!report.finished) {
      console.error('Stopped before the end: run `jotline keys rotate` again to resume. Keep MASTER_KEY_PREVIOUS until it finishes.');
      process.exitCode = 1;
      return;
    }
    console.log(
      `Everything is now under key ${report.toKeyId}. Remove MASTER_KEY_PREVIOUS from every instance and restart them; ` +
        'keep the old key in your secret store only while backups taken before now are kept (they are encrypted under it).',
    );
  } catch (err) {
    if (!(err instanceof KeyRotationError)) throw err;
    console.error(err.message);
    process.exitCode = 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await close();
  }
}
