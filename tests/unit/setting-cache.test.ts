// Decision 053: the node's copy of a setting is kept only while it can be trusted: the listener
// connected, no notice since the read began, and not older than its safety net.
import { describe, expect, it } from 'vitest';
import { SettingCache } from '../../src/server/modules/setting/setting-cache';

/** A read the test finishes when it likes, counting how often the database was asked. */
function reader() {
  const pending: ((value: string) => void)[] = [];
  return {
    calls: () => pending.length,
    load: () => new Promise<string>((resolve) => pending.push(resolve)),
    finish: (value: string) => pending.shift()!(value),
  };
}

const listeningCache = () => {
  const cache = new SettingCache();
  cache.listening(true);
  return cache;
};

describe('the setting cache', () => {
  it('reads a setting once and then answers it without a promise', async () => {
    const cache = listeningCache();
    const db = reader();
    const first = cache.read('announcement', db.load);
    db.finish('on');
    expect(await first).toBe('on');
    expect(cache.read('announcement', db.load)).toBe('on');
    expect(db.calls()).toBe(0);
  });

  it('reads again after a notice for that setting, and keeps other settings', async () => {
    const cache = listeningCache();
    const db = reader();
    for (const key of ['announcement', 'other']) {
      const read = cache.read(key, db.load);
      db.finish(`${key} v1`);
      await read;
    }
    cache.changed('announcement');
    expect(cache.has('announcement')).toBe(false);
    expect(cache.read('other', db.load)).toBe('other v1');
    const again = cache.read('announcement', db.load);
    expect(again).toBeInstanceOf(Promise);
    db.finish('announcement v2');
    expect(await again).toBe('announcement v2');
    expect(cache.read('announcement', db.load)).toBe('announcement v2');
  });

  it('does not keep a read that a notice overtook (it may hold the value from before the save)', async () => {
    const cache = listeningCache();
    const db = reader();
    const raced = cache.read('announcement', db.load);
    cache.changed('announcement');
    db.finish('before the save');
    expect(await raced).toBe('before the save');
    expect(cache.has('announcement')).toBe(false);
  });

  it('holds nothing while the listener is disconnected, and starts empty when it comes back', async () => {
    const cache = listeningCache();
    const db = reader();
    const read = cache.read('announcement', db.load);
    db.finish('on');
    await read;
    cache.listening(false);
    const whileDown = cache.read('announcement', db.load);
    db.finish('still read');
    expect(await whileDown).toBe('still read');
    expect(cache.has('announcement')).toBe(false);
    cache.listening(true);
    expect(cache.has('announcement')).toBe(false);
  });

  it('drops everything on a notice that says some may have been missed (null)', async () => {
    const cache = listeningCache();
    const db = reader();
    const read = cache.read('announcement', db.load);
    db.finish('on');
    await read;
    cache.changed(null);
    expect(cache.has('announcement')).toBe(false);
  });

  it('reads a setting again after a minute even without a notice (a change made behind the app)', async () => {
    const cache = listeningCache();
    const db = reader();
    const read = cache.read('announcement', db.load);
    db.finish('on');
    await read;
    expect(cache.read('announcement', db.load, Date.now() + 30_000)).toBe('on');
    const late = cache.read('announcement', db.load, Date.now() + 61_000);
    expect(late).toBeInstanceOf(Promise);
    db.finish('changed by hand');
    expect(await late).toBe('changed by hand');
  });
});
