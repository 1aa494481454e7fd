import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loadNamespaces } from '../../../app/i18n';
import type * as jupyterClient from '../jupyter-client';
import { interruptKernel, JupyterError, restartKernel } from '../jupyter-client';
import type { CodeEditorProps } from './code-editor';
import { NotebookView } from './notebook-view';

vi.mock('../editor-context', () => ({
  useEditor: () => ({ projectId: 'p1', running: true, canEdit: true, runAllSignal: 0 }),
  useSaver: () => undefined,
}));
vi.mock('../project-api', () => ({
  files: {
    read: async () => ({
      content: JSON.stringify({ cells: [], metadata: {}, nbformat: 4, nbformat_minor: 5 }),
      size: 0,
    }),
    save: async () => null,
  },
}));
vi.mock('../jupyter-client', async (original) => ({
  ...(await original<typeof jupyterClient>()),
  notebookKernel: async () => 'k1',
  interruptKernel: vi.fn(),
  restartKernel: vi.fn(),
}));
// The kernel's channels answer at once: Python is ready.
vi.mock('./kernel-connection', () => ({
  KernelConnection: class {
    constructor(
      _projectId: string,
      readonly kernelId: string,
      onState: (state: string) => void,
    ) {
      queueMicrotask(() => onState('ready'));
    }
    close() {}
  },
}));
vi.mock('./code-editor', () => ({
  CodeEditor: ({ value, label }: CodeEditorProps) => <textarea aria-label={label} defaultValue={value} />,
}));

const toolbarButton = (name: string) =>
  within(screen.getByRole('toolbar', { name: 'Notebook' }))
    .getByText(name)
    .closest('button')!;
const runState = () => document.querySelector('[data-run-state]')?.getAttribute('data-run-state');

describe('notebook toolbar', () => {
  beforeEach(async () => {
    vi.mocked(interruptKernel).mockReset();
    vi.mocked(restartKernel).mockReset();
    await loadNamespaces(['project']);
  });

  it('says so when Python cannot stop the running code or restart, instead of staying stuck', async () => {
    vi.mocked(interruptKernel).mockRejectedValue(new JupyterError(500));
    vi.mocked(restartKernel).mockRejectedValue(new TypeError('Failed to fetch'));
    const user = userEvent.setup();
    render(<NotebookView path="analysis.ipynb" active />);
    await screen.findByText('Ready');

    await user.click(toolbarButton('Stop running'));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Python did not stop the running code. Try again, or restart Python.',
    );
    expect(runState()).toBe('error');
    expect(screen.getByText('Lost the connection to Python')).toBeTruthy();

    await user.click(toolbarButton('Restart Python'));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Python could not be restarted. Try again, or stop Python and start it again.',
    );
    expect(screen.queryByText(/did not stop the running code/)).toBeNull();
    expect(runState()).toBe('error');
  });

  it('is ready again after a restart that works', async () => {
    vi.mocked(restartKernel).mockResolvedValue(null);
    const user = userEvent.setup();
    render(<NotebookView path="analysis.ipynb" active />);
    await screen.findByText('Ready');

    await user.click(toolbarButton('Restart Python'));
    expect(await screen.findByText('Ready')).toBeTruthy();
    expect(restartKernel).toHaveBeenCalledWith('p1', 'k1');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
