import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('runs on embedded defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.sms.provider).toBe('simulator');
    expect(config.databaseUrl).toMatch(/^sqlite:.*jotline\.db$/);
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it('names the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });

  it('requires the Twilio credentials when Twilio is chosen', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'twilio' })).toThrow(/TWILIO_ACCOUNT_SID/);
  });

  it('refuses the simulators in production', () => {
    let error: unknown;
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(String((error as Error).message)).toMatch(/SMS_PROVIDER.*refused in production/);
    expect(String((error as Error).message)).toMatch(/MASTER_KEY/);
  });

  it('keeps photos on local disk by default, or in the directory STORAGE_URL names', () => {
    expect(loadConfig({ DATA_DIR: '/srv/jotline' }).storage).toEqual({ provider: 'disk', directory: '/srv/jotline/photos' });
    expect(loadConfig({ STORAGE_URL: 'file:///srv/photos' }).storage).toEqual({ provider: 'disk', directory: '/srv/photos' });
  });

  it('puts photos in an S3-compatible bucket, path-style when an endpoint is given', () => {
    const s3 = { STORAGE_URL: 's3://jotline-photos', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' };
    expect(loadConfig({ ...s3, S3_ENDPOINT: 'http://127.0.0.1:9000' }).storage).toEqual({
      provider: 's3',
      bucket: 'jotline-photos',
      prefix: '',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
    expect(loadConfig({ ...s3, S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'false' }).storage).toMatchObject({ forcePathStyle: false });
    expect(loadConfig({ ...s3, STORAGE_URL: 's3://jotline-photos/prod/', S3_REGION: 'eu-west-1' }).storage).toMatchObject({
      prefix: 'prod/',
      region: 'eu-west-1',
      endpoint: undefined,
      forcePathStyle: false,
    });
  });

  it('requires the S3 credentials and a valid bucket name for s3:// storage', () => {
    let error: unknown;
    try {
      loadConfig({ STORAGE_URL: 's3://jotline-photos' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(String((error as Error).message)).toMatch(/S3_ACCESS_KEY_ID: required when STORAGE_URL is s3:/);
    expect(String((error as Error).message)).toMatch(/S3_SECRET_ACCESS_KEY: required when STORAGE_URL is s3:/);
    const keys = { S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' };
    expect(() => loadConfig({ ...keys, STORAGE_URL: 's3://Bad_Bucket' })).toThrow(/STORAGE_URL: must be s3:\/\/bucket/);
    expect(() => loadConfig({ ...keys, STORAGE_URL: 's3://' })).toThrow(/STORAGE_URL/);
    expect(() => loadConfig({ ...keys, STORAGE_URL: 's3://jotline-photos', S3_ENDPOINT: 'not a url' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ ...keys, STORAGE_URL: 's3://jotline-photos', S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(/S3_FORCE_PATH_STYLE/);
  });
});
