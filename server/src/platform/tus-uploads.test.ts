import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MadeDirectoryFileStore, parseUploadMetadata } from './tus-uploads.js';

describe('resumable uploads', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('reads the tus metadata header, values in base64', () => {
    const header = `filename ${Buffer.from('数据 集.zip').toString('base64')},datasetId ${Buffer.from('d-1').toString('base64')},flag`;
    expect(parseUploadMetadata(header)).toEqual({ filename: '数据 集.zip', datasetId: 'd-1', flag: '' });
    expect(parseUploadMetadata(undefined)).toEqual({});
  });

  it('leaves making the folder to the caller: a folder the store cannot make throws nothing out of band', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tus-store-'));
    made.push(dir);
    const missing = path.join(dir, 'never-made');
    const blocked = path.join(dir, 'a-file');
    writeFileSync(blocked, '');
    new MadeDirectoryFileStore({ directory: missing });
    // A folder under a file cannot be made: the store's own attempt threw from a callback, out of every test's reach.
    new MadeDirectoryFileStore({ directory: path.join(blocked, 'uploads') });
    // A trip through the thread pool after the stores were made: their callbacks, had they run, ran by now.
    await stat(dir);
    await new Promise((resolve) => setImmediate(resolve));
    expect(existsSync(missing)).toBe(false);
  });
});
