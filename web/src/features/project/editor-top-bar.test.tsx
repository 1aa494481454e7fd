import { API, type Language, type TRuntimeAvailability, type TRuntimeStatus } from '@aiedu/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../app/api-client';
import { changeLanguage, loadNamespaces } from '../../app/i18n';
import { ok } from '../../test/fake-api';
import { signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { aProject, aRuntime } from '../../test/project-fixtures';
import { EditorTopBar } from './editor-top-bar';

const PROJECT = aProject({ id: 'p1', ownerId: 'u-kid', name: 'Iris' });

const stopped = (stopReason: TRuntimeStatus['stopReason']) => aRuntime({ stopReason, startedBy: 'u-kid' });

/** The bar for a runtime status, in a query client of its own unless one is given (to re-render with it). */
const bar = (runtime: TRuntimeStatus, startError: unknown = null, client = new QueryClient(), project = PROJECT) => (
  <QueryClientProvider client={client}>
    <MemoryRouter>
      <EditorTopBar
        project={project}
        runtime={runtime}
        startError={startError}
        onStart={() => undefined}
        onStop={() => undefined}
        onRunAll={() => undefined}
      />
    </MemoryRouter>
  </QueryClientProvider>
);
const renderBar = (runtime: TRuntimeStatus, startError: unknown = null) => render(bar(runtime, startError));

describe('editor top bar', () => {
  let diskFull = false;
  let ai: TRuntimeAvailability['ai'] = { state: 'ready', command: '', progress: '' };
  beforeEach(async () => {
    diskFull = false;
    ai = { state: 'ready', command: '', progress: '' };
    const server = await startFakeApi();
    signInAs('ROLE_STUDENT');
    server.on(`GET ${API.runtimeAvailability}`, () =>
      ok({ state: 'ready', command: '', progress: '', limits: 'none', diskFull, ai }),
    );
  });
  afterEach(async () => {
    stopFakeApi();
    await changeLanguage('en', { remember: false });
  });

  it('says a runtime was stopped for writing to a full disk, in every language', async () => {
    const texts: Record<Language, string> = {
      en: "The server's disk is almost full and this project kept writing to it",
      zh_CHS: '服务器磁盘快满了，而这个项目仍在不断写入',
      zh_CHT: '伺服器磁碟快滿了，而這個專案仍在不斷寫入',
      ja: 'サーバーのディスクがほぼいっぱいなのに',
    };
    for (const [language, text] of Object.entries(texts)) {
      await changeLanguage(language as Language, { remember: false });
      await loadNamespaces(['project']);
      const { unmount } = renderBar(stopped('diskFull'));
      expect((await screen.findByRole('alert')).textContent).toContain(text);
      unmount();
    }
  });

  it('explains a start refused for a full disk, and keeps the running projects of a quota refusal', async () => {
    const noSpace = new ApiError('http', 507, {
      errorCode: '2003',
      errorMsg: 'No space left',
      data: { disk: 'server', freeMb: 700 },
    });
    const first = renderBar(stopped('user'), noSpace);
    expect(await screen.findByText('No space left')).toBeTruthy();
    expect(screen.getByText(/Delete large files you no longer need, or ask your school's administrator/)).toBeTruthy();
    first.unmount();

    const quota = new ApiError('http', 409, {
      errorCode: '3108',
      errorMsg: 'Too many runtimes',
      data: { running: [{ projectId: 'p2', name: 'Digits' }] },
    });
    renderBar(stopped('user'), quota);
    expect(await screen.findByRole('link', { name: 'Digits' })).toBeTruthy();
    expect(screen.queryByText(/disk is almost full/)).toBeNull();
  });

  it('warns before a start that the disk is full, once, and not over a running runtime', async () => {
    diskFull = true;
    const warning = /^The server's disk is almost full, so Python cannot start/;
    const client = new QueryClient();
    const view = render(bar(stopped('user'), null, client));
    expect(await screen.findByText(warning)).toBeTruthy();
    expect(screen.getByRole('button', { name: /Start Python/ })).toBeTruthy();
    // Once it runs (a start that raced the disk's check), the warning goes.
    view.rerender(bar(aRuntime({ state: 'RUNNING', stopReason: null }), null, client));
    expect(await screen.findByRole('button', { name: /Stop/ })).toBeTruthy();
    expect(screen.queryByText(warning)).toBeNull();
    view.unmount();

    // Stopped for writing on: that reason says it all.
    const stoppedForDisk = renderBar(stopped('diskFull'));
    expect(await screen.findByText(/this project kept writing to it/)).toBeTruthy();
    expect(screen.queryByText(warning)).toBeNull();
    stoppedForDisk.unmount();
  });

  it('shows the environment the project runs in', async () => {
    const python = render(bar(stopped('user')));
    expect((await screen.findByText('Python', { selector: '[data-environment]' })).getAttribute('title')).toBe(
      'Python (numpy, matplotlib)',
    );
    python.unmount();
    render(bar(stopped('user'), null, new QueryClient(), aProject({ ...PROJECT, environment: 'ai' })));
    const tag = await screen.findByText('AI', { selector: '[data-environment]' });
    expect(tag.getAttribute('title')).toMatch(/^AI \(pandas, scikit-learn, PyTorch, OpenCV\)/);
  });

  it("gives an AI project the command that installs the AI libraries, and follows an installation's progress", async () => {
    const command = 'apt-get install -y python3-pandas python3-sklearn python3-torch python3-opencv';
    ai = { state: 'missing', command, progress: '' };
    const aiProject = aProject({ ...PROJECT, environment: 'ai' });
    const missing = render(bar(stopped('user'), null, new QueryClient(), aiProject));
    expect(await screen.findByText(/The AI libraries this project needs .* are not on this server yet/)).toBeTruthy();
    expect(screen.getByText(command)).toBeTruthy();
    // The start is what asks the server to install them.
    expect((screen.getByRole('button', { name: /Start Python/ }) as HTMLButtonElement).disabled).toBe(false);
    missing.unmount();

    // A plain Python project on the same server needs none of it.
    const plain = render(bar(stopped('user')));
    expect(await screen.findByRole('button', { name: /Start Python/ })).toBeTruthy();
    expect(screen.queryByText(command)).toBeNull();
    plain.unmount();

    ai = { state: 'installing', command, progress: 'Unpacking python3-torch (2.6.0) ...' };
    render(bar(stopped('user'), null, new QueryClient(), aiProject));
    expect(await screen.findByText(/AI libraries this project needs are being installed/)).toBeTruthy();
    expect(screen.getByText('Unpacking python3-torch (2.6.0) ...')).toBeTruthy();
    expect((screen.getByRole('button', { name: /Start Python/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says it in every language', async () => {
    ai = { state: 'missing', command: 'apt-get install python3-torch', progress: '' };
    const texts: Record<Language, string> = {
      en: 'The AI libraries this project needs',
      zh_CHS: '这个项目需要的 AI 库',
      zh_CHT: '這個專案需要的 AI 函式庫',
      ja: 'このプロジェクトに必要な AI ライブラリ',
    };
    for (const [language, text] of Object.entries(texts)) {
      await changeLanguage(language as Language, { remember: false });
      await loadNamespaces(['project']);
      const { unmount } = render(
        bar(stopped('user'), null, new QueryClient(), aProject({ ...PROJECT, environment: 'ai' })),
      );
      expect(await screen.findByText(new RegExp(text))).toBeTruthy();
      unmount();
    }
  });
});
