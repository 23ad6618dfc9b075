import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The kinds of file the server stores, by the type its bytes were sniffed as. */
export const storedTypes = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'application/pdf': 'pdf',
} as const;
export type StoredType = keyof typeof storedTypes;

/** A stored file name: random, with the extension of its sniffed type. Never user input. */
export const storedNamePattern = /^[A-Za-z0-9_-]{32}\.(png|jpg|pdf)$/;

/**
 * Where uploaded files live. The local folder is the default; a deployment with several server
 * processes puts an S3-compatible bucket behind the same three calls (s3-storage.ts). Every
 * backend passes the one suite in storage.suite.ts.
 */
export type FileStorage = {
  /** Stores the bytes under a new random name and returns the name. */
  put: (bytes: Uint8Array, contentType: StoredType) => Promise<string>;
  /** The bytes and type of a stored file, or undefined when there is none by that name. */
  get: (name: string) => Promise<{ bytes: Uint8Array<ArrayBuffer>; contentType: StoredType } | undefined>;
  /** Removes a stored file; removing one that is gone already is not an error. */
  remove: (name: string) => Promise<void>;
};

/** A new random stored name with the extension of its type. */
export function newStoredName(contentType: StoredType): string {
  return `${randomBytes(24).toString('base64url')}.${storedTypes[contentType]}`;
}

/** The content type a stored name stands for, or undefined for a name we never issued. */
export function typeOfName(name: string): StoredType | undefined {
  if (!storedNamePattern.test(name)) return undefined;
  const extension = name.slice(name.lastIndexOf('.') + 1);
  return (Object.keys(storedTypes) as StoredType[]).find((type) => storedTypes[type] === extension);
}

/** Files in a local folder (DATA_DIR/files by default). */
export function folderStorage(folder: string): FileStorage {
  const full = (name: string) => {
    // Names come from newStoredName; anything else could walk out of the folder.
    if (!storedNamePattern.test(name)) throw new Error('invalid stored file name');
    return path.join(folder, name);
  };
  return {
    put: async (bytes, contentType) => {
      await mkdir(folder, { recursive: true });
      const name = newStoredName(contentType);
      await writeFile(full(name), bytes, { flag: 'wx', mode: 0o600 });
      return name;
    },
    get: async (name) => {
      const contentType = typeOfName(name);
      if (!contentType) return undefined;
      try {
        return { bytes: new Uint8Array(await readFile(full(name))), contentType };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    remove: async (name) => {
      if (!storedNamePattern.test(name)) return;
      await rm(full(name), { force: true });
    },
  };
}

/** Files in memory: for tests. */
export function memoryStorage(): FileStorage & { names: () => string[] } {
  const files = new Map<string, Uint8Array<ArrayBuffer>>();
  return {
    put: async (bytes, contentType) => {
      const name = newStoredName(contentType);
      files.set(name, new Uint8Array(bytes));
      return name;
    },
    get: async (name) => {
      const bytes = files.get(name);
      const contentType = typeOfName(name);
      return bytes && contentType ? { bytes, contentType } : undefined;
    },
    remove: async (name) => {
      files.delete(name);
    },
    names: () => [...files.keys()],
  };
}

/** spec (part 1, section 9): the types we accept, recognised by their first bytes, not their names. */
export function sniff(bytes: Uint8Array): StoredType | undefined {
  const starts = (...signature: number[]) => signature.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf';
  return undefined;
}
