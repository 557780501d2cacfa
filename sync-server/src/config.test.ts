import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('loadConfig', () => {
  it('defaults to port 8080 and ./data where npm was started, not inside the workspace', () => {
    const config = loadConfig({ INIT_CWD: '/srv/quire' });
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe('/srv/quire/data');
    expect(config.databaseUrl).toBeUndefined();
    expect(loadConfig({ INIT_CWD: '/srv/quire', DATA_DIR: 'elsewhere' }).dataDir).toBe('/srv/quire/elsewhere');
    expect(loadConfig({ INIT_CWD: '/srv/quire', DATA_DIR: '/var/lib/quire' }).dataDir).toBe('/var/lib/quire');
  });

  it("defaults rate limits high enough for an integration's burst, and bodies to 1 MiB", () => {
    const config = loadConfig({});
    // A few thousand requests a minute per token; more per address, which several tokens may share.
    expect(config.rateLimitPerToken).toBeGreaterThanOrEqual(3000);
    expect(config.rateLimitPerAddress).toBeGreaterThanOrEqual(config.rateLimitPerToken);
    expect(config.maxBodyBytes).toBe(1024 * 1024);
  });

  it('reads rate limits and the port from the environment, refusing what is not a whole number', () => {
    const config = loadConfig({ PORT: '9000', RATE_LIMIT_PER_TOKEN: '10', RATE_LIMIT_PER_ADDRESS: '0' });
    expect([config.port, config.rateLimitPerToken, config.rateLimitPerAddress]).toEqual([9000, 10, 0]);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow('PORT must be a whole number, got "eighty"');
    expect(() => loadConfig({ RATE_LIMIT_PER_TOKEN: '-1' })).toThrow(/RATE_LIMIT_PER_TOKEN/);
  });

  it('keeps site insights 400 days unless INSIGHTS_RETENTION_DAYS says otherwise, and at least a day', () => {
    expect(loadConfig({}).insightsRetentionDays).toBe(400);
    expect(loadConfig({ INSIGHTS_RETENTION_DAYS: '30' }).insightsRetentionDays).toBe(30);
    expect(loadConfig({ INSIGHTS_RETENTION_DAYS: '0' }).insightsRetentionDays).toBe(1);
    expect(() => loadConfig({ INSIGHTS_RETENTION_DAYS: 'forever' })).toThrow(/INSIGHTS_RETENTION_DAYS/);
  });

  it('hashes new passwords at scrypt N=2^15, and lets only tests lower that', () => {
    expect(loadConfig({}).passwordCost).toEqual({ N: 32768, r: 8, p: 3 });
    expect(loadConfig({ PASSWORD_SCRYPT_N: '65536' }).passwordCost).toEqual({ N: 65536, r: 8, p: 3 });
    expect(() => loadConfig({ PASSWORD_SCRYPT_N: '1024' })).toThrow('PASSWORD_SCRYPT_N must be a power of two of at least 32768, got 1024');
    expect(() => loadConfig({ NODE_ENV: 'production', PASSWORD_SCRYPT_N: '1024' })).toThrow(/at least 32768/);
    expect(() => loadConfig({ PASSWORD_SCRYPT_N: '40000' })).toThrow(/power of two/);
    expect(loadConfig({ NODE_ENV: 'test', PASSWORD_SCRYPT_N: '1024' }).passwordCost).toEqual({ N: 1024, r: 8, p: 3 });
  });
});

describe('the bus between instances', () => {
  it('is PostgreSQL unless SYNC_BUS names Redis, which is found at REDIS_URL, on one stream unless sharded', () => {
    expect(loadConfig({})).toMatchObject({ syncBus: 'postgres', redisUrl: 'redis://127.0.0.1:6379', syncBusShards: 1 });
    expect(loadConfig({ SYNC_BUS: 'redis', REDIS_URL: 'redis://cache:6380/2', SYNC_BUS_SHARDS: '64' })).toMatchObject({
      syncBus: 'redis',
      redisUrl: 'redis://cache:6380/2',
      syncBusShards: 64,
    });
    expect(() => loadConfig({ SYNC_BUS: 'kafka' })).toThrow('SYNC_BUS must be postgres or redis, got "kafka"');
  });
});

describe('git limits', () => {
  it('default to 256 MiB and ten minutes an operation, no polling, retries from 30 s, and are read from the environment', () => {
    expect(loadConfig({}).git).toEqual({ maxBytes: 256 * 1024 * 1024, timeoutMs: 600_000, retryBaseMs: 30_000, pollSeconds: 0 });
    expect(loadConfig({ GIT_MAX_BYTES: '1048576', GIT_TIMEOUT_MS: '30000', GIT_RETRY_BASE_MS: '500', GIT_POLL_SECONDS: '60' }).git).toEqual(
      { maxBytes: 1048576, timeoutMs: 30_000, retryBaseMs: 500, pollSeconds: 60 },
    );
    expect(() => loadConfig({ GIT_MAX_BYTES: 'lots' })).toThrow('GIT_MAX_BYTES must be a whole number, got "lots"');
  });
});
