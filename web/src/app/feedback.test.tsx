import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startVisitorApi } from '../test/page-kit';
import { renderApp } from '../test/render-app';
import { showSystemNotice, toast } from './feedback';

beforeEach(() => void startVisitorApi());
afterEach(() => vi.restoreAllMocks());

describe('feedback host', () => {
  it('shows toasts asked for before their code has loaded', async () => {
    renderApp('/home');
    await screen.findByRole('heading', { level: 1 });

    act(() => {
      toast.error('Token invalid or logged in elsewhere');
      toast.warning('Too many requests, please try again later');
    });

    expect(await screen.findByText('Token invalid or logged in elsewhere')).toBeTruthy();
    expect(await screen.findByText('Too many requests, please try again later')).toBeTruthy();
    // Spec section 9: toasts 86 px from the top.
    const container = document.querySelector('.ant-message') as HTMLElement | null;
    expect(container?.style.getPropertyValue('--notification-top')).toBe('86px');
  });

  it('keeps a success toast 3 s and any other 2 s (spec section 9)', async () => {
    renderApp('/home');
    await screen.findByRole('heading', { level: 1 });
    act(() => toast.error('warming up'));
    await screen.findByText('warming up');

    // The toasts' timer counts animation frames against the clock.
    vi.useFakeTimers({
      toFake: ['Date', 'requestAnimationFrame', 'cancelAnimationFrame', 'setTimeout', 'clearTimeout'],
    });
    try {
      act(() => {
        toast.success('Profile saved');
        toast.error('Upload failed');
      });
      expect(screen.getByText('Profile saved')).toBeTruthy();
      const shown = (text: string) => screen.queryByText(text)?.closest('.ant-message-notice');
      expect(shown('Upload failed')).toBeTruthy();
      // An element on its way out is marked leaving before it goes.
      const leaving = (text: string) => shown(text)?.className.includes('leave') ?? true;
      act(() => vi.advanceTimersByTime(2_100));
      expect(leaving('Upload failed')).toBe(true);
      expect(leaving('Profile saved')).toBe(false);
      act(() => vi.advanceTimersByTime(1_000));
      expect(leaving('Profile saved')).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('opens one blocking system notice (640 px) with a QR code, closed only by its button', async () => {
    const user = userEvent.setup();
    renderApp('/home');
    await screen.findByRole('heading', { level: 1 });

    act(() => {
      showSystemNotice();
      showSystemNotice();
    });

    const dialog = await screen.findByRole('dialog', { name: 'System notice' });
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(dialog.textContent).toContain(
      'The system detected that your request may threaten the site and blocked it automatically.',
    );
    expect(screen.getByRole('img', { name: 'QR code with the staff contact address' })).toBeTruthy();
    expect((dialog.closest('.ant-modal') as HTMLElement | null)?.style.width).toBe('640px');
    expect((await axe.run(dialog)).violations.map((v) => v.id)).toEqual([]);

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'System notice' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'I understand' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'System notice' })).toBeNull());
  });
});
