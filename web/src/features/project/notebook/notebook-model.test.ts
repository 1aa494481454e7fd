import { describe, expect, it } from 'vitest';
import { appendOutput, parseNotebook, serialiseNotebook, stripAnsi } from './notebook-model';

const FILE = `${JSON.stringify(
  {
    cells: [
      {
        cell_type: 'code',
        execution_count: 1,
        id: 'c1',
        metadata: {},
        outputs: [{ name: 'stdout', output_type: 'stream', text: ['10\n'] }],
        source: ['import numpy as np\n', 'print(np.arange(5).sum())'],
      },
      { cell_type: 'markdown', id: 'm1', metadata: {}, source: ['# Title'] },
    ],
    metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' } },
    nbformat: 4,
    nbformat_minor: 5,
  },
  null,
  1,
)}\n`;

describe('notebook model', () => {
  it('writes back exactly the nbformat 4 file it read', () => {
    expect(serialiseNotebook(parseNotebook(FILE))).toBe(FILE);
  });

  it('merges consecutive stream output and strips terminal colours', () => {
    const merged = appendOutput([{ output_type: 'stream', name: 'stdout', text: 'a' }], {
      output_type: 'stream',
      name: 'stdout',
      text: 'b',
    });
    expect(merged).toEqual([{ output_type: 'stream', name: 'stdout', text: 'ab' }]);
    expect(stripAnsi('\u001b[0;31mZeroDivisionError\u001b[0m')).toBe('ZeroDivisionError');
  });
});
