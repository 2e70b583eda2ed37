import { createBackup, BackupError, restoreBackup } from './backup/backup';
import { ConfigError, loadConfig } from './config';
import { DataDirLockedError } from './lib/data-dir-lock';

/**
 * `npm run backup [-- --out <file>]` and `npm run restore -- <file>` (src/backup/backup.ts;
 * README.md, "Backups"). The configuration is the server's own (DATA_DIR, DATABASE_URL,
 * MIGRATION_DATABASE_URL, S3_*), from the environment.
 */
const USAGE = 'Usage: npm run backup [-- --out <file.tar.gz>]\n       npm run restore -- <file.tar.gz>';

async function main(argv: string[]) {
  const [command, ...args] = argv;
  const config = loadConfig();
  const log = (line: string) => process.stdout.write(`${line}\n`);
  if (command === 'backup') {
    let out: string | undefined;
    for (let i = 0; i < args.length; i++) {
      if (args[i] === '--out' && args[i + 1]) out = args[++i];
      else if (args[i]!.startsWith('--out=')) out = args[i]!.slice('--out='.length);
      else throw new BackupError(`Unknown argument ${args[i]}.\n${USAGE}`);
    }
    await createBackup(config, { out, log });
    return;
  }
  if (command === 'restore') {
    if (args.length !== 1 || args[0]!.startsWith('-')) throw new BackupError(`Name the archive to restore.\n${USAGE}`);
    const result = await restoreBackup(config, args[0]!, { log });
    log(`restored: ${Object.entries(result.manifest.counts).map(([t, n]) => `${t} ${n}`).join(', ')}; ${result.media} media object(s)`);
    if (result.movedAside) log(`the database it replaced is kept in ${result.movedAside} (delete it once you are sure)`);
    return;
  }
  throw new BackupError(USAGE);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const known = error instanceof BackupError || error instanceof ConfigError || error instanceof DataDirLockedError;
  console.error(known ? error.message : error);
  process.exit(1);
});
