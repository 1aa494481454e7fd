import { describe, expect, it } from 'vitest';
import { DATASET_MOUNT_NAME_MAX, datasetMountName } from './project-dataset.js';

describe('a dataset’s folder name in a project', () => {
  it.each([
    ['Iris', 'iris'],
    ['Iris Flowers!', 'iris_flowers'],
    ['  ../../etc/passwd  ', 'etc_passwd'],
    ['.hidden', 'hidden'],
    ['鸢尾花 数据', '鸢尾花_数据'],
    ['ＡＢＣ１２３', 'abc123'],
    ['!!!', 'dataset'],
    ['', 'dataset'],
  ])('%j → %j', (name, folder) => {
    expect(datasetMountName(name)).toBe(folder);
  });

  it('stays short and unique in its project', () => {
    const long = datasetMountName('x'.repeat(200));
    expect(long.length).toBeLessThanOrEqual(DATASET_MOUNT_NAME_MAX);
    expect(datasetMountName('Iris', new Set(['iris']))).toBe('iris_2');
    expect(datasetMountName('Iris', new Set(['iris', 'iris_2']))).toBe('iris_3');
    const taken = new Set([long, ...Array.from({ length: 98 }, (_, i) => `${long}_${i + 2}`)]);
    expect(datasetMountName('x'.repeat(200), taken).length).toBeLessThanOrEqual(DATASET_MOUNT_NAME_MAX);
  });
});
