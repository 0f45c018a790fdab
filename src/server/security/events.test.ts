import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/app';
import { recordSecurityEvent } from './events';

describe('recordSecurityEvent', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('stores the event with its details as JSON, secrets removed', async () => {
    const identifier = uniqueEmail();
    await recordSecurityEvent(t.app.ctx, {
      event_type: 'login_failure',
      identifier,
      severity: 'medium',
      ip: '10.0.0.1',
      details: { reason: 'wrong_password', password: 'Hunter22', nested: { refresh_token: 'abc', kept: 1 } },
    });
    const row = await t.app.ctx.db.selectFrom('security_events').selectAll().where('identifier', '=', identifier).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ event_type: 'login_failure', severity: 'medium', ip: '10.0.0.1', user_id: null, created_at: t.clock.now().toISOString() });
    expect(JSON.parse(row.details!)).toEqual({ reason: 'wrong_password', nested: { kept: 1 } });
  });
});
