import { API, ROLES, type TDiskSpace, type TRuntimeIsolation } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { ok, type FakeServer } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { browser } from '../../app/browser';
import { ADMIN_API } from './admin-api';

const CONFIG = {
  platformName: null,
  logoUrl: null,
  isCustomerSingle: null,
  isVerifyCode: null,
  deployment: { isCustomerSingle: false, isVerifyCode: true },
};
const TYPES = [
  {
    runtimeType: 'BASIC',
    cpu: 1,
    memoryMb: 1024,
    weeklyMinutes: 600,
    deploymentWeeklyMinutes: 600,
    customized: false,
    customers: 2,
  },
  {
    runtimeType: 'ADVANCED',
    cpu: 2,
    memoryMb: 2048,
    weeklyMinutes: 90,
    deploymentWeeklyMinutes: 300,
    customized: true,
    customers: 0,
  },
  {
    runtimeType: 'GPU',
    cpu: 4,
    memoryMb: 4096,
    weeklyMinutes: 60,
    deploymentWeeklyMinutes: 60,
    customized: false,
    customers: 1,
  },
];
const CUSTOMER = { id: 'c-1', name: 'North District', code: 'north2026', parentId: null };
const SETTING = { isCustomerSingle: false, isVerifyCode: false, platformName: null, logoUrl: null };

const GB = 2 ** 30;
const DISK: TDiskSpace = {
  floorBytes: GB,
  state: 'ok',
  disks: [{ kind: 'data', path: '/var/lib/aiedu', freeBytes: 40 * GB, totalBytes: 100 * GB }],
};

const ISOLATED: TRuntimeIsolation = {
  driver: 'local',
  network: 'isolated',
  networkMode: 'internet',
  reason: '',
  processesHidden: true,
  limits: 'rlimit',
};

let server: FakeServer;
let disk: TDiskSpace = DISK;
let isolation: TRuntimeIsolation = ISOLATED;
let setting: typeof SETTING | { platformName: string; logoUrl: string | null } = SETTING;

beforeEach(async () => {
  server = await startFakeApi();
  setting = SETTING;
  disk = DISK;
  isolation = ISOLATED;
  server.on(`GET ${API.sysSetting}`, () => ok(setting));
  server.on(`GET ${ADMIN_API.runtimeIsolation}`, () => ok(isolation));
  server.on(`GET ${ADMIN_API.systemConfig}`, () => ok(CONFIG));
  server.on(`GET ${ADMIN_API.backup}/schedule`, () =>
    ok({ enabled: false, dir: null, at: null, keep: null, files: [], last: null }),
  );
  server.on(`GET ${ADMIN_API.disk}`, () => ok(disk));
  server.on(`GET ${ADMIN_API.containerTypesConfig}`, () => ok(TYPES));
  server.on(`GET ${ADMIN_API.customers}`, () => ok({ list: [CUSTOMER], total: 1, page: 1, size: 20 }));
  server.on(`GET ${ADMIN_API.customerModules('c-1')}`, () =>
    ok({ teacher: ['courses', 'projects'], student: ['courses', 'projects', 'mall'] }),
  );
  signInAs(ROLES.super, '');
});

afterEach(stopFakeApi);

describe('the super administrators’ console', { timeout: 60_000 }, () => {
  it.each([
    ['/super/system-config', 'System configuration'],
    ['/super/container-types', 'Container types'],
    ['/super/modules', 'Modules'],
  ])('%s shows "%s" in the platform menu, with no axe violations', async (path, heading) => {
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
    const menu = screen.getByRole('navigation', { name: 'Administration menu' });
    expect(within(menu).getByRole('link', { name: heading })).toBeTruthy();
    await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());
    expect(await axeViolations()).toEqual([]);
  });

  it('renames the platform and sets the captcha switch; the header follows at once', async () => {
    const user = userEvent.setup();
    server.on(`PUT ${ADMIN_API.systemConfig}`, () => {
      setting = { ...SETTING, platformName: 'Bright Schools' };
      return ok({ ...CONFIG, platformName: 'Bright Schools', isVerifyCode: false });
    });
    renderApp('/super/system-config');
    const name = await screen.findByRole('textbox', { name: 'Platform name' });
    // The switch follows the deployment until it is set, and says what the deployment does.
    expect(screen.getByRole('radio', { name: 'As deployed (On)' }).matches(':checked')).toBe(true);
    await user.type(name, 'Bright Schools');
    const captcha = screen.getByRole('radiogroup', { name: 'Slider verification on every password sign-in' });
    await user.click(within(captcha).getByRole('radio', { name: 'Off' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to(ADMIN_API.systemConfig).some((r) => r.method === 'PUT')).toBe(true));
    expect(lastChange(server, ADMIN_API.systemConfig)).toEqual({
      platformName: 'Bright Schools',
      isVerifyCode: false,
      isCustomerSingle: null,
    });
    expect(await screen.findByRole('link', { name: 'Bright Schools home' })).toBeTruthy();
  });

  it('uploads a logo as a file, and refuses one over 3 MB before sending it', async () => {
    server.on(`POST ${ADMIN_API.systemConfig}/logo`, () => ok({ ...CONFIG, logoUrl: '/files/logo.png' }));
    renderApp('/super/system-config');
    await screen.findByRole('heading', { level: 2, name: 'Logo' });
    const user = userEvent.setup();
    // The upload renders a fresh file input after each choice.
    const input = () => document.querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input(), new File([new Uint8Array(3 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' }));
    expect(await screen.findByText('The image must be under 3 MB')).toBeTruthy();
    expect(server.to(`${ADMIN_API.systemConfig}/logo`)).toEqual([]);
    await user.upload(input(), new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' }));
    await waitFor(() => expect(server.to(`${ADMIN_API.systemConfig}/logo`)).toHaveLength(1));
  });

  it('downloads a backup by following the one-minute link the server gives', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    server.on(`POST ${ADMIN_API.backup}/link`, () => ok({ url: `${ADMIN_API.backup}?ticket=t-1` }));
    renderApp('/super/system-config');
    const card = (await screen.findByRole('heading', { level: 2, name: 'Backup' })).closest('.ant-card') as HTMLElement;
    // Commands and variables read as code.
    expect(within(card).getByText('npm run restore -- FILE', { selector: 'code' })).toBeTruthy();
    const paragraph = (text: RegExp) => (_: string, element: Element | null) =>
      element?.tagName === 'P' && text.test(element.textContent ?? '');
    expect(await within(card).findByText(paragraph(/^Daily backups are off\. Set BACKUP_DIR \(with/))).toBeTruthy();
    expect(within(card).getByText('BACKUP_DIR', { selector: 'code' })).toBeTruthy();
    await userEvent.setup().click(within(card).getByRole('button', { name: /Download a backup/ }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${ADMIN_API.backup}?ticket=t-1`));
    expect(await screen.findByText('The backup is being prepared; the download starts in a moment.')).toBeTruthy();
    assign.mockRestore();
  });

  it('says when the daily backups run, where they go, and how the latest went', async () => {
    const last = {
      day: '2026-11-24',
      startedAt: '2026-11-24T02:00:00Z',
      finishedAt: '2026-11-24T02:00:07Z',
      file: '/srv/backups/aiedu-backup-20261124-0200.tar.gz',
      bytes: 12.5 * 1024 * 1024,
      error: null,
    };
    const files = [
      { name: 'aiedu-backup-20261124-0200.tar.gz', bytes: 12.5 * 1024 * 1024, modifiedAt: '2026-11-24T02:00:07Z' },
      { name: 'aiedu-backup-20261123-0200.tar.gz', bytes: 300 * 1024, modifiedAt: '2026-11-23T02:00:05Z' },
    ];
    let schedule = { enabled: true, dir: '/srv/backups', at: '02:00', keep: 7, files, last };
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    server.on(`POST ${ADMIN_API.backup}/link`, () => ok({ url: `${ADMIN_API.backup}?file=x&ticket=t-2` }));
    server.on(`GET ${ADMIN_API.backup}/schedule`, () => ok(schedule));
    const view = renderApp('/super/system-config');
    expect(await screen.findByText('Every day at 02:00 into /srv/backups, keeping the newest 7.')).toBeTruthy();
    expect(
      screen.getByText(/^Latest: .+, 12\.5 MB \(\/srv\/backups\/aiedu-backup-20261124-0200\.tar\.gz\)\.$/),
    ).toBeTruthy();
    // Each kept backup downloads by its own link.
    const kept = screen.getByRole('list', { name: 'Daily backups kept' });
    expect(within(kept).getByText('aiedu-backup-20261123-0200.tar.gz · 300 kB')).toBeTruthy();
    await userEvent
      .setup()
      .click(within(kept).getByRole('button', { name: 'Download aiedu-backup-20261123-0200.tar.gz' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${ADMIN_API.backup}?file=x&ticket=t-2`));
    expect(lastChange(server, `${ADMIN_API.backup}/link`)).toEqual({ file: 'aiedu-backup-20261123-0200.tar.gz' });
    assign.mockRestore();
    view.unmount();

    schedule = {
      ...schedule,
      last: {
        ...last,
        finishedAt: '2026-11-24T02:00:01Z',
        file: null,
        bytes: 0,
        error: 'ENOSPC: no space left on device',
      } as never,
    };
    renderApp('/super/system-config');
    expect(await screen.findByText('The backup of 2026-11-24 failed: ENOSPC: no space left on device')).toBeTruthy();
  });

  it("shows how full the server's disks are against the floor kept free, and warns near and below it", async () => {
    disk = {
      ...DISK,
      disks: [...DISK.disks, { kind: 'backups', path: '/srv/backups', freeBytes: 5 * GB, totalBytes: 20 * GB }],
    };
    const view = renderApp('/super/system-config');
    const card = (await screen.findByRole('heading', { level: 2, name: 'Disk' })).closest('.ant-card') as HTMLElement;
    expect(await within(card).findByText('Data (/var/lib/aiedu): 40 GB free of 100 GB')).toBeTruthy();
    expect(within(card).getByRole('progressbar', { name: 'Data (/var/lib/aiedu)' }).getAttribute('aria-valuenow')).toBe(
      '60',
    );
    expect(within(card).getByText('Daily backups (/srv/backups): 5 GB free of 20 GB')).toBeTruthy();
    expect(within(card).getByText(/^Below 1 GB free, notebooks do not start/)).toBeTruthy();
    expect(within(card).queryByRole('alert')).toBeNull();
    view.unmount();

    for (const [state, freeBytes, warning] of [
      ['near', 1.5 * GB, 'The data disk is close to its floor. Free space or enlarge the disk soon.'],
      ['low', 0.5 * GB, 'The data disk is below its floor: notebooks and uploads wait until space is freed.'],
    ] as const) {
      disk = { ...DISK, state, disks: [{ ...DISK.disks[0]!, freeBytes }] };
      const warned = renderApp('/super/system-config');
      expect(await screen.findByText(warning)).toBeTruthy();
      warned.unmount();
    }

    disk = { floorBytes: 0, state: 'off', disks: DISK.disks };
    renderApp('/super/system-config');
    expect(await screen.findByText(/^No space is kept free/)).toBeTruthy();
  });

  it('says whether notebooks are cut off from the server, and why not and what to do when they are not', async () => {
    const view = renderApp('/super/system-config');
    const card = (await screen.findByRole('heading', { level: 2, name: 'Notebook isolation' })).closest(
      '.ant-card',
    ) as HTMLElement;
    expect(await within(card).findByText(/^Notebooks cannot reach this server's database, Redis, API/)).toBeTruthy();
    expect(within(card).getByText('hidden: a notebook lists only its own')).toBeTruthy();
    expect(within(card).getByText('open (RUNTIME_NETWORK=internet)')).toBeTruthy();
    view.unmount();

    isolation = {
      ...ISOLATED,
      network: 'open',
      processesHidden: false,
      reason: 'nftables is not installed (/usr/sbin/nft)',
    };
    renderApp('/super/system-config');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText("Notebooks can reach this server's database, Redis and API")).toBeTruthy();
    expect(within(alert).getByText('Why: nftables is not installed (/usr/sbin/nft).')).toBeTruthy();
    expect(within(alert).getByText('nftables').tagName).toBe('CODE');
    expect(screen.getByText('visible: a notebook can list every process of this machine')).toBeTruthy();
  });

  it('lists the container types and sets the weekly minutes of one', async () => {
    const user = userEvent.setup();
    server.on(`PUT ${ADMIN_API.containerTypesConfig}`, () => ok(null));
    renderApp('/super/container-types');
    const basic = (await screen.findByRole('cell', { name: 'Basic' })).closest('tr')!;
    expect(within(basic).getByText('1.0 GB')).toBeTruthy();
    expect(within(basic).getByText('As deployed')).toBeTruthy();
    const advanced = screen.getByRole('cell', { name: 'Advanced' }).closest('tr')!;
    expect(within(advanced).getByText('Platform default')).toBeTruthy();
    await user.click(within(basic).getByRole('button', { name: 'Edit' }));
    const drawer = await screen.findByRole('dialog');
    const minutes = within(drawer).getByRole('spinbutton', { name: 'Weekly minutes' });
    await user.clear(minutes);
    await user.type(minutes, '120');
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to(ADMIN_API.containerTypesConfig).some((r) => r.method === 'PUT')).toBe(true));
    expect(lastChange(server, ADMIN_API.containerTypesConfig)).toEqual({ runtimeType: 'BASIC', weeklyMinutes: 120 });
  });

  it('sets the modules of a customer’s student side', async () => {
    const user = userEvent.setup();
    const path = ADMIN_API.customerModules('c-1');
    server.on(`PUT ${path}`, (request) => ok(JSON.parse(request.body ?? '{}')));
    renderApp('/super/modules');
    await user.click(await screen.findByRole('button', { name: 'Set the modules of North District' }));
    const drawer = await screen.findByRole('dialog');
    const student = await within(drawer).findByRole('group', { name: 'Student side' });
    const mall = within(student).getByRole('checkbox', { name: 'Points mall' });
    expect((mall as HTMLInputElement).checked).toBe(true);
    expect(await axeViolations()).toEqual([]);
    await user.click(mall);
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to(path).some((r) => r.method === 'PUT')).toBe(true));
    expect(lastChange(server, path)).toEqual({ teacher: ['courses', 'projects'], student: ['courses', 'projects'] });
  });
});

describe('the platform’s name and logo, and the modules of a side, in the app', { timeout: 60_000 }, () => {
  it('shows the name and logo a super administrator set in the header, the title and on /home', async () => {
    setting = { ...SETTING, platformName: 'Bright Schools', logoUrl: '/gw/api/v1/files/download?key=logo' };
    renderApp('/home');
    const home = await screen.findByRole('link', { name: 'Bright Schools home' });
    expect(home.querySelector('img')?.getAttribute('src')).toBe('/gw/api/v1/files/download?key=logo');
    expect(await screen.findByText('Bright Schools', { selector: '.home-banner__brand' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Home · Bright Schools'));
  });

  it('hides from a student the areas their institution switched off, and their pages refuse', async () => {
    signInAs(ROLES.student);
    server.on(`GET ${API.schoolModules}`, () => ok([{ id: 'courses' }]));
    server.on(`GET ${API.schoolHome}`, () =>
      ok({ custcode: 'demo2026', name: 'Demo', banners: [], projectTypes: [], footerSites: [], modules: {} }),
    );
    renderApp('/pjedu/projects');
    // The page says what the API says to its calls with the module off (1008).
    expect(await screen.findByRole('heading', { name: 'No permission to visit' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    await waitFor(() => expect(within(nav).queryByRole('link', { name: 'Projects' })).toBeNull());
    expect(within(nav).getByRole('link', { name: 'Courses' })).toBeTruthy();
    expect(server.to(API.projects)).toEqual([]);
    // The account menu leaves out the pages of areas switched off: projects, contests and the points mall.
    await userEvent.setup().click(await screen.findByRole('button', { name: /Account menu/ }));
    expect(await screen.findByRole('link', { name: 'My courses' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'My projects' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'My contests' })).toBeNull();
    expect(screen.queryByRole('link', { name: /^Points/ })).toBeNull();
  });
});
