import { API, type TArea, type TUserInfo } from '@aiedu/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { clearSession, saveLogin } from '../../app/session';
import { createFakeServer, ok, type FakeServer } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

const USER: TUserInfo = {
  id: 'u-1',
  username: 'student01',
  domainId: 'c-1',
  custcode: 'demo2026',
  roles: ['ROLE_STUDENT'],
  nickname: 'Ada',
  realName: 'Ada Lovelace',
  avatarUrl: null,
  gender: 'female',
  birthDay: '2015-03-01',
  identity: 'student',
  areas: [],
  schoolName: 'Demo Primary',
  signature: '',
  phone: null,
  email: null,
  judges: false,
  mustChangePassword: false,
};

const AREA_CHILDREN = '/api/v1/area/children';
/** A few of the divisions the server knows (GB/T 2260 codes), by parent code. */
const DIVISIONS: Record<string, TArea[]> = {
  '': [{ code: 'CN', name: '中国', leaf: false }],
  CN: [
    { code: '11', name: '北京市', leaf: false },
    { code: '33', name: '浙江省', leaf: false },
  ],
  '33': [
    { code: '3301', name: '杭州市', leaf: false },
    { code: '3302', name: '宁波市', leaf: false },
  ],
  '3301': [{ code: '330106', name: '西湖区', leaf: true }],
};

let server: FakeServer;

function parentCodes(): string[] {
  return server.to(AREA_CHILDREN).map((r) => new URL(r.url, 'http://localhost').searchParams.get('parentCode') ?? '');
}

function sentProfile(): Record<string, unknown> {
  return JSON.parse(server.to(API.userInfo).find((r) => r.method === 'PUT')?.body ?? '{}') as Record<string, unknown>;
}

async function openBasicInfo(areas: string[]) {
  server.on(`GET ${API.userInfo}`, () => ok({ ...USER, areas }));
  renderApp('/pjedu/userprofile?slideKey=study');
  return screen.findByRole('combobox', { name: 'Province and city' });
}

beforeEach(async () => {
  await changeLanguage('en', { remember: false });
  saveLogin({ token: 'access-1', refreshToken: 'refresh-1', userId: 'u-1', roles: ['ROLE_STUDENT'] });
  server = createFakeServer();
  server.on(`GET ${API.pointsTotal}`, () => ok(0));
  server.on(`GET ${API.teacherCertification}`, () => ok(null));
  server.on(`PUT ${API.userInfo}`, (request) => ok({ ...USER, ...(JSON.parse(request.body ?? '{}') as object) }));
  server.on(`GET ${AREA_CHILDREN}`, (request) => {
    const parent = new URL(request.url, 'http://localhost').searchParams.get('parentCode') ?? '';
    return ok(DIVISIONS[parent] ?? []);
  });
  vi.spyOn(window, 'fetch').mockImplementation((url, init) => server.fetch(String(url), init ?? {}));
});

afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
});

describe('basic information: province and city', () => {
  it('picks a province, then a city, from the divisions and saves their names', async () => {
    const user = userEvent.setup();
    const field = await openBasicInfo([]);
    await waitFor(() => expect(parentCodes()).toEqual(['CN']));

    await user.click(field);
    await user.click(await screen.findByTitle('浙江省'));
    await user.click(await screen.findByTitle('杭州市'));
    // A city is as far as the profile goes: no districts are asked for.
    expect(parentCodes()).toEqual(['CN', '33']);
    expect(screen.queryByTitle('西湖区')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(sentProfile()).toMatchObject({ province: '浙江省', city: '杭州市' }));
  });

  it('shows a saved province and city with their level loaded', async () => {
    const field = await openBasicInfo(['浙江省', '杭州市']);

    await waitFor(() => expect(parentCodes()).toEqual(['CN', '33']));
    const form = field.closest('form') as HTMLElement;
    expect(within(form).getByTitle('浙江省 / 杭州市')).toBeTruthy();
  });

  it('keeps a place typed before there was a picker, shown and saved as it was', async () => {
    const user = userEvent.setup();
    const field = await openBasicInfo(['Zhejiang', 'Hangzhou']);

    const form = field.closest('form') as HTMLElement;
    expect(await within(form).findByTitle('Zhejiang / Hangzhou')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(sentProfile()).toMatchObject({ province: 'Zhejiang', city: 'Hangzhou' }));
  });
});
