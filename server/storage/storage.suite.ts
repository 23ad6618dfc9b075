import { describe, expect, it } from 'vitest';
import { type FileStorage, type StoredType, storedNamePattern } from './storage.ts';

/**
 * The one contract every file storage backend keeps (folder, S3, memory). `open` returns a new
 * handle on the same place each time it is called, as a second server process would have.
 */
export function describeFileStorage(name: string, open: () => FileStorage) {
  describe(`file storage: ${name}`, () => {
    const png = (...tail: number[]) =>
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...tail]);
    const missing = 'A'.repeat(32);

    it('stores bytes under a new random name with the extension of their type, and returns them', async () => {
      const storage = open();
      const cases: Array<[StoredType, string]> = [
        ['image/png', 'png'],
        ['image/jpeg', 'jpg'],
        ['application/pdf', 'pdf'],
      ];
      for (const [type, extension] of cases) {
        const bytes = png(type.length, 1, 2, 3);
        const stored = await storage.put(bytes, type);
        expect(stored).toMatch(storedNamePattern);
        expect(stored.endsWith(`.${extension}`)).toBe(true);
        const read = await storage.get(stored);
        expect(read?.contentType).toBe(type);
        expect(read && [...read.bytes]).toEqual([...bytes]);
      }
    });

    it('keeps every byte value and a file of several megabytes exactly', async () => {
      const storage = open();
      const bytes = new Uint8Array(3 * 1024 * 1024 + 7);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
      const stored = await storage.put(bytes, 'application/pdf');
      const read = await storage.get(stored);
      expect(read?.bytes.byteLength).toBe(bytes.byteLength);
      expect(Buffer.from(read?.bytes ?? []).equals(Buffer.from(bytes))).toBe(true);
    });

    it('gives the same bytes twice two different names, and concurrent puts never collide', async () => {
      const storage = open();
      const bytes = png(9);
      const names = await Promise.all(Array.from({ length: 12 }, () => storage.put(bytes, 'image/png')));
      expect(new Set(names).size).toBe(names.length);
      for (const stored of names) expect((await storage.get(stored))?.bytes).toEqual(bytes);
    });

    it('answers undefined for a name it never stored and for names it would never issue', async () => {
      const storage = open();
      expect(await storage.get(`${missing}.png`)).toBeUndefined();
      for (const bad of ['../../etc/passwd', `${missing}.exe`, `../${missing}.png`, '', 'a/b.pdf']) {
        expect(await storage.get(bad)).toBeUndefined();
      }
    });

    it('removes a file; removing it again, or a name it never issued, is not an error', async () => {
      const storage = open();
      const stored = await storage.put(png(1), 'image/png');
      const kept = await storage.put(png(2), 'image/png');
      await storage.remove(stored);
      expect(await storage.get(stored)).toBeUndefined();
      await expect(storage.remove(stored)).resolves.toBeUndefined();
      await expect(storage.remove('../../etc/passwd')).resolves.toBeUndefined();
      expect((await storage.get(kept))?.bytes).toEqual(png(2));
    });

    it('is shared: a second handle (another server process) reads and removes what the first stored', async () => {
      const first = open();
      const second = open();
      const stored = await first.put(png(4, 2), 'image/png');
      expect((await second.get(stored))?.bytes).toEqual(png(4, 2));
      await second.remove(stored);
      expect(await first.get(stored)).toBeUndefined();
    });
  });
}
