import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

/**
 * The unpacked size of a zip archive (an .xlsx is one), checked before anything parses it: a
 * 2 MB workbook can inflate to gigabytes (a zip bomb), and a spreadsheet reader inflates every
 * part into memory. First the sizes the central directory declares are added up; then every
 * entry is inflated as a stream and its bytes counted (and dropped), so an archive whose headers
 * understate its entries is stopped at its declared size (yauzl's entry-size validation), and
 * the total never passes `limitBytes`. Nothing is kept: this only measures.
 */
export type ZipSizeProblem = 'too-large' | 'lying' | 'unreadable';

const open = (buffer: Buffer) =>
  new Promise<yauzl.ZipFile>((resolve, reject) => {
    yauzl.fromBuffer(
      buffer,
      { lazyEntries: true, validateEntrySizes: true, decodeStrings: true, strictFileNames: false },
      (error, zip) => {
        if (error || !zip) reject(error ?? new Error('no zip'));
        else resolve(zip);
      },
    );
  });

/** The central directory's entries, or 'too-large' as soon as their declared sizes pass the limit. */
const entriesOf = (zip: yauzl.ZipFile, limitBytes: number) =>
  new Promise<yauzl.Entry[] | 'too-large'>((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    let declared = 0;
    zip.on('error', reject);
    zip.on('entry', (entry: yauzl.Entry) => {
      declared += entry.uncompressedSize;
      if (declared > limitBytes) {
        resolve('too-large');
        return;
      }
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.readEntry();
  });

const streamOf = (zip: yauzl.ZipFile, entry: yauzl.Entry) =>
  new Promise<Readable>((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) reject(error ?? new Error('no stream'));
      else resolve(stream);
    });
  });

export async function zipSizeProblem(bytes: Uint8Array, limitBytes: number): Promise<ZipSizeProblem | null> {
  let zip: yauzl.ZipFile;
  try {
    zip = await open(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch {
    return 'unreadable';
  }
  try {
    const entries = await entriesOf(zip, limitBytes);
    if (entries === 'too-large') return 'too-large';
    let inflated = 0;
    for (const entry of entries) {
      const stream = await streamOf(zip, entry);
      for await (const chunk of stream) {
        inflated += (chunk as Buffer).byteLength;
        if (inflated > limitBytes) {
          stream.destroy();
          return 'too-large';
        }
      }
    }
    return null;
  } catch (error) {
    // yauzl fails an entry's stream as soon as it inflates past its declared size.
    return /too many bytes|too few bytes/.test((error as Error).message ?? '') ? 'lying' : 'unreadable';
  } finally {
    zip.close();
  }
}
