import { API, type Language, type TRuntimeStatus } from '@aiedu/contracts';
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
const bar = (runtime: TRuntimeStatus, startError: unknown = null, client = new QueryClient()) => (
  <QueryClientProvider client={client}>
    <MemoryRouter>
      <EditorTopBar
        project={PROJECT}
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
  beforeEach(async () => {
    diskFull = false;
    const server = await startFakeApi();
    signInAs('ROLE_STUDENT');
    server.on(`GET ${API.runtimeAvailability}`, () =>
      ok({ state: 'ready', command: '', progress: '', limits: 'none', diskFull }),
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
});
