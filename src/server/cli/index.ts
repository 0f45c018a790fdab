import 'dotenv/config';
import { ConfigError, loadConfig } from '../config';
import { createContext } from '../create-context';
import { migrateToLatest, openDatabase } from '../db/database';
import { createDemoAccount } from '../demo/demo-account';
import { serve } from '../main';
import { backupCommand } from './backup';
import { keysCommand } from './keys';
import { reminderTickCommand } from './reminders';
import { voiceCommand } from './voice';

const usage = `Usage: jotline <command>

  serve                      run the web app, API and background jobs (default)
  migrate                    bring the database schema up to date
  admin grant EMAIL          make an account an admin
  admin revoke EMAIL         take admin rights away
  demo                       create (or recreate) the demo account, with a year of entries and photos
  reminders tick [--at ISO]  run one reminder pass as of that instant (default now), e.g.
                             --at 2026-11-22T20:00:00-05:00; prints what was queued
  backup FILE                copy the SQLite database to FILE while the service runs
                             (on PostgreSQL, prints the pg_dump recipe)
  keys rotate                re-encrypt every entry, photo and stored text from MASTER_KEY_PREVIOUS
                             under MASTER_KEY while the service runs; run again to resume
  voice model fetch [tiny.en|base.en]
                             download a Whisper model (default tiny.en) into DATA_DIR/models,
                             check its SHA-1, and print the WHISPER_MODEL line to set
                             (--to DIR: another folder)`;

async function setAdmin(email: string, isAdmin: boolean): Promise<void> {
  const config = loadConfig();
  const { db, close } = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(db);
    const result = await db
      .updateTable('users')
      .set({ is_admin: isAdmin ? 1 : 0, updated_at: new Date().toISOString() })
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      console.error(`No account with the email ${email}.`);
      process.exitCode = 1;
      return;
    }
    console.log(isAdmin ? `${email} is now an admin.` : `${email} is no longer an admin.`);
    if (isAdmin) {
      console.log('Admin pages need a sign-in with a passkey or a second factor: at /admin/login, the admin sets one up (an authenticator app or a passkey) before the dashboard opens.');
    }
  } finally {
    await close();
  }
}

async function demo(): Promise<void> {
  const config = loadConfig();
  if (config.isProduction) {
    console.error('The demo account has a printed password; it is not created in production.');
    process.exitCode = 1;
    return;
  }
  console.log('Writing a year of demo entries…');
  const { ctx, close } = await createContext(config);
  try {
    const account = await createDemoAccount(ctx);
    console.log(`Demo account ready: ${account.entries} entries, ${account.photos} photos, phone ${account.phone}.`);
    console.log(`\n  Sign in at ${account.signInUrl}\n  Email      ${account.email}\n  Password   ${account.password}\n`);
  } finally {
    await close();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command = 'serve', ...rest] = argv;
  switch (command) {
    case 'serve':
      return serve(loadConfig());
    case 'migrate': {
      const { db, close } = openDatabase(loadConfig().databaseUrl);
      const applied = await migrateToLatest(db).finally(close);
      console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
      return;
    }
    case 'demo':
      return demo();
    case 'backup':
      return backupCommand(rest);
    case 'keys':
      return keysCommand(rest);
    case 'voice':
      return voiceCommand(rest);
    case 'reminders':
      if (rest[0] === 'tick') return reminderTickCommand(rest.slice(1));
      break;
    case 'admin': {
      const [action, email] = rest;
      if ((action === 'grant' || action === 'revoke') && email) return setAdmin(email, action === 'grant');
      break;
    }
    case 'help':
    case '--help':
    case '-h':
      console.log(usage);
      return;
  }
  console.error(usage);
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
