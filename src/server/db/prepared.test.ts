import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/app';
import { buildUser, uniqueEmail } from '../test/factories';
import { preparedQuery } from './prepared';

// Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
describe('a prepared query', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const db = () => t.app.ctx.db;

  // Two values named out of their order in the SQL, one used twice, and one fixed when it compiles.
  const usersNamed = preparedQuery<{ second: string; first: string }, { email: string }>((db, param) =>
    db
      .selectFrom('users')
      .select('email')
      .where((eb) => eb.or([eb('email', '=', param('first')), eb('email', '=', param('second')), eb('email', '=', param('first'))]))
      .where('is_admin', '=', 0)
      .orderBy('email'),
  );

  it('binds fresh values on every run, by name, and keeps the values fixed at compile time', async () => {
    const [a, b, c] = [await buildUser(t, { email: uniqueEmail('a') }), await buildUser(t, { email: uniqueEmail('b') }), await buildUser(t, { email: uniqueEmail('c') })];
    const admin = await buildUser(t, { email: uniqueEmail('d'), isAdmin: true });
    expect(await usersNamed(db(), { first: a.email, second: b.email })).toEqual([{ email: a.email }, { email: b.email }]);
    expect(await usersNamed(db(), { second: a.email, first: c.email })).toEqual([{ email: a.email }, { email: c.email }]);
    // is_admin = 0 was compiled in: an admin is never found.
    expect(await usersNamed(db(), { first: admin.email, second: admin.email })).toEqual([]);
    expect(await usersNamed(db(), { first: 'nobody@example.com', second: 'nobody@example.com' })).toEqual([]);
  });

  it('answers as the same query built afresh would, inside a transaction too', async () => {
    const user = await buildUser(t);
    const built = await db().selectFrom('users').select('email').where('email', '=', user.email).execute();
    expect(await usersNamed(db(), { first: user.email, second: user.email })).toEqual(built);
    const inTransaction = await db()
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('users').set({ email: `moved-${user.email}` }).where('id', '=', user.id).execute();
        return usersNamed(trx, { first: `moved-${user.email}`, second: user.email });
      });
    expect(inTransaction).toEqual([{ email: `moved-${user.email}` }]);
  });

  it('never reads what another request’s open transaction has not committed', async () => {
    const user = await buildUser(t);
    const moved = `moved-${user.email}`;
    let outside: Promise<{ email: string }[]> | undefined;
    const rolledBack = db()
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('users').set({ email: moved }).where('id', '=', user.id).execute();
        // Another request reads meanwhile (on SQLite the same connection, mid-transaction).
        outside = usersNamed(db(), { first: moved, second: moved });
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('rolled back');
      });
    await expect(rolledBack).rejects.toThrow('rolled back');
    expect(await outside).toEqual([]);
    expect(await usersNamed(db(), { first: user.email, second: user.email })).toEqual([{ email: user.email }]);
  });
});
