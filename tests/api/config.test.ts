import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';

describe('configuration', () => {
  const dataDir = () => mkdtempSync(join(tmpdir(), 'bo-config-'));
  it('starts with the documented defaults', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config).toMatchObject({ port: 8000, adminEmail: 'admin@example.com', adminPassword: 'password', appEnv: 'local', appUrl: 'http://localhost:8000' });
  });
  it('names the bad variable in one line', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), ADMIN_PASSWORD: 'short' })).toThrow(/ADMIN_PASSWORD/);
  });
  it('takes the firm’s time zone from APP_TIMEZONE, else the server’s, and refuses a zone that does not exist', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), APP_TIMEZONE: 'Pacific/Auckland' }).timeZone).toBe('Pacific/Auckland');
    expect(loadConfig({ DATA_DIR: dataDir() }).timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(() => loadConfig({ DATA_DIR: dataDir(), APP_TIMEZONE: 'Europe/Atlantis' })).toThrow(/APP_TIMEZONE/);
  });
  it('trusts no proxy by default, and the proxies TRUST_PROXY names', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: '10.0.0.0/8,127.0.0.1' }).trustProxy).toBe('10.0.0.0/8,127.0.0.1');
    expect(() => loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });
  it('generates the pusher credentials once and keeps them across restarts', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.pusher.key).toMatch(/^[0-9a-f]{20}$/);
    expect(loadConfig({ DATA_DIR: dir }).pusher).toEqual(first.pusher);
    expect(loadConfig({ DATA_DIR: dir, PUSHER_APP_KEY: 'mine' }).pusher.key).toBe('mine');
  });
});
