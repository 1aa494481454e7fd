import { CERT_API, CERT_LIMITS, ROLES, ZCreateCertRequest, ZUpdateCertRequest } from '@aiedu/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok, type FakeServer } from '../../test/fake-api';
import { axeViolations, lastChange, signInAs, startFakeApi, stopFakeApi } from '../../test/page-kit';
import { renderApp } from '../../test/render-app';
import { aTemplateDetail, answerDesigner, TEMPLATE_ID } from './designer-fixtures';
import { defaultElements } from './designer-model';

vi.mock('./pdf-view', () => ({
  PdfView: ({ label, data }: { label: string; data: unknown }) => (
    <figure aria-label={label} data-loaded={data ? 'yes' : 'no'} />
  ),
}));

let server: FakeServer;

beforeEach(async () => {
  server = await startFakeApi();
  signInAs(ROLES.customerAdmin);
  answerDesigner(server);
  server.on(`GET ${CERT_API.cert}`, () => ok({ list: [], total: 0, page: 1, size: 20 }));
});
afterEach(stopFakeApi);

const DEFAULTS = defaultElements('landscape');
const previews = () => server.to(CERT_API.preview).map((r) => JSON.parse(r.body ?? '{}'));

describe('certificate designer', { timeout: 60_000 }, () => {
  it('moves a part by dragging and by the keyboard, widens one by its edge, and saves a design the contract accepts', async () => {
    const user = userEvent.setup();
    server.on(`POST ${CERT_API.cert}`, () => ok(aTemplateDetail()));
    const { router } = renderApp('/admin/certificates/new');
    const name = await screen.findByRole('button', {
      name: `Name — x ${DEFAULTS.name.x}, y ${DEFAULTS.name.y}`,
    });
    expect(await axeViolations()).toEqual([]);

    fireEvent.pointerDown(name, { button: 0, pointerId: 1, clientX: 300, clientY: 200 });
    fireEvent.pointerMove(name, { pointerId: 1, clientX: 340, clientY: 260 });
    fireEvent.pointerUp(name, { pointerId: 1, clientX: 340, clientY: 260 });
    const dragged = await screen.findByRole('button', {
      name: `Name — x ${DEFAULTS.name.x + 40}, y ${DEFAULTS.name.y + 60}`,
    });
    expect(dragged.getAttribute('aria-pressed')).toBe('true');
    expect((screen.getByLabelText('X') as HTMLInputElement).value).toBe(String(DEFAULTS.name.x + 40));

    const content = screen.getByRole('button', { name: /^Content — / });
    const edge = content.querySelector('.designer-part__resize')!;
    fireEvent.pointerDown(edge, { button: 0, pointerId: 2, clientX: 500, clientY: 300 });
    fireEvent.pointerMove(content, { pointerId: 2, clientX: 470, clientY: 380 });
    fireEvent.pointerUp(content, { pointerId: 2 });
    await waitFor(() =>
      expect((screen.getByLabelText('Width') as HTMLInputElement).value).toBe(String(DEFAULTS.content.width - 30)),
    );

    const date = screen.getByRole('button', { name: /^Date — / });
    date.focus();
    await user.keyboard('{ArrowLeft}{ArrowLeft}{Shift>}{ArrowUp}{/Shift}');
    expect(
      screen.getByRole('button', { name: `Date — x ${DEFAULTS.date.x - 2}, y ${DEFAULTS.date.y - 10}` }),
    ).toBeTruthy();

    await user.type(screen.getByLabelText('Template name'), 'Robotics contest');
    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Title'), 'Robotics Award');
    await user.type(screen.getByLabelText('Letters'), 'AB');
    expect(await screen.findByText(/Next number: AB202611280001/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save template' }));

    await waitFor(() => expect(server.to(CERT_API.cert).some((r) => r.method === 'POST')).toBe(true));
    const body = ZCreateCertRequest.parse(lastChange(server, CERT_API.cert));
    expect(body).toMatchObject({ name: 'Robotics contest', type: 'teaching', numberRule: { prefix: 'AB', digits: 4 } });
    expect(body.design.title).toBe('Robotics Award');
    expect(body.design.content).toBe('This is to certify that {name} has successfully completed {awardFor}.');
    expect(body.design.elements.name).toMatchObject({ x: DEFAULTS.name.x + 40, y: DEFAULTS.name.y + 60 });
    expect(body.design.elements.content).toMatchObject({ x: DEFAULTS.content.x, width: DEFAULTS.content.width - 30 });
    expect(body.design.elements.date).toMatchObject({ x: DEFAULTS.date.x - 2, y: DEFAULTS.date.y - 10 });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/certificates'));
  });

  it('refuses a prefix of 11 letters or with digits, with the rule’s message, sends nothing and warns before leaving', async () => {
    const user = userEvent.setup();
    renderApp('/admin/certificates/new');
    await user.type(await screen.findByLabelText('Template name'), 'Coding club');
    const prefix = screen.getByLabelText('Letters');
    await user.type(prefix, 'ABCDEFGHIJK');
    const message = 'Use 0 to 10 letters (A–Z), no digits or other characters.';
    expect(await screen.findByText(message)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    await user.clear(prefix);
    await user.type(prefix, 'AB12');
    expect(await screen.findByText(message)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    expect(server.to(CERT_API.cert).filter((r) => r.method === 'POST')).toHaveLength(0);
    // Leaving with unsaved changes asks first.
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Your changes to this template will be lost.')).toBeTruthy();
    // No next number is asked for a rule that cannot be.
    const asked = server.to(CERT_API.nextNumber).map((r) => new URL(r.url, 'http://x').searchParams.get('prefix'));
    expect(asked).not.toContain('ABCDEFGHIJK');
    expect(asked).not.toContain('AB12');
  });

  it('refuses a 6 MB background before sending it, with the size hint shown', async () => {
    const user = userEvent.setup({ applyAccept: false });
    server.on(`PUT ${CERT_API.uploadCertPic}`, () => ok({ key: 'k', url: '/x.png', width: 930, height: 650 }));
    renderApp('/admin/certificates/new');
    expect(await screen.findByText(/Recommended size 650 × 930/)).toBeTruthy();
    const big = new File([new Uint8Array(6 * 1024 * 1024)], 'big.png', { type: 'image/png' });
    expect(big.size).toBeGreaterThan(CERT_LIMITS.imageBytes);
    await user.upload(screen.getByTestId('background-file'), big);
    expect((await screen.findByText('The image must be smaller than 5 MB.')).getAttribute('role')).toBe('alert');
    const gif = new File(['GIF89a'], 'seal.gif', { type: 'image/gif' });
    await user.upload(screen.getByTestId('seal-file'), gif);
    expect(await screen.findByText('Choose a JPG or PNG image.')).toBeTruthy();
    expect(server.to(CERT_API.uploadCertPic)).toHaveLength(0);

    await user.upload(screen.getByTestId('background-file'), new File(['png'], 'bg.png', { type: 'image/png' }));
    await waitFor(() => expect(server.to(CERT_API.uploadCertPic)).toHaveLength(1));
    expect(await screen.findByRole('button', { name: /Replace Background image/ })).toBeTruthy();
  });

  it('asks for the preview once the typing rests, never for the letters in between', async () => {
    const user = userEvent.setup();
    renderApp('/admin/certificates/new');
    await waitFor(() => expect(previews().length).toBeGreaterThan(0));
    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Title'), 'Award');
    await waitFor(() => expect(previews().some((p) => p.design.title === 'Award')).toBe(true));
    const titles = previews().map((p) => p.design.title);
    expect(titles.filter((title) => !['Certificate of Achievement', '', 'Award'].includes(title))).toEqual([]);
    expect(screen.getByRole('figure', { name: 'Preview of the certificate' }).getAttribute('data-loaded')).toBe('yes');
  });

  it('edits a template and shows the server’s refusal on its field', async () => {
    const user = userEvent.setup();
    server.on(`GET ${CERT_API.certDetail}`, () => ok(aTemplateDetail()));
    server.on(`PUT ${CERT_API.cert}`, () => ({
      status: 400,
      body: {
        errorCode: '1001',
        errorMsg: 'Bad request',
        data: { issues: [{ path: 'body.name', message: 'Too similar' }] },
      },
    }));
    renderApp(`/admin/certificates/${TEMPLATE_ID}/edit`);
    const name = await screen.findByLabelText('Template name');
    expect((name as HTMLInputElement).value).toBe('Robotics contest');
    await user.type(name, ' 2026');
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    expect(await screen.findByText('Too similar')).toBeTruthy();
    const body = ZUpdateCertRequest.parse(lastChange(server, CERT_API.cert));
    expect(body).toMatchObject({ id: TEMPLATE_ID, name: 'Robotics contest 2026' });
    expect(body.design.content).toBe('{name} took part in {awardFor}.');
  });
});
