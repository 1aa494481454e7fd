import { projectApi } from '@aiedu/contracts';
import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KEEP_ONLINE_MS, useKeepOnline } from './use-keep-online';

const post = vi.hoisted(() => vi.fn(() => Promise.resolve(null)));
vi.mock('../../app/api', () => ({ api: { post } }));

let visibility: DocumentVisibilityState = 'visible';

describe('the editor keeps its runtime online while it is shown', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    post.mockClear();
    visibility = 'visible';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('says so every minute while shown and running, not while hidden, and stops when the runtime stops', () => {
    const { rerender, unmount } = renderHook(({ running }) => useKeepOnline('p1', running), {
      initialProps: { running: true },
    });
    vi.advanceTimersByTime(KEEP_ONLINE_MS);
    expect(post).toHaveBeenCalledTimes(1);
    expect(post).toHaveBeenCalledWith(projectApi('p1').runtimeKeepOnline, {}, expect.objectContaining({ quiet: true }));

    // A tab in the background says nothing: the idle stop may free its runtime.
    visibility = 'hidden';
    vi.advanceTimersByTime(3 * KEEP_ONLINE_MS);
    expect(post).toHaveBeenCalledTimes(1);
    // Shown again, it says so at once.
    visibility = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    expect(post).toHaveBeenCalledTimes(2);

    rerender({ running: false });
    vi.advanceTimersByTime(3 * KEEP_ONLINE_MS);
    expect(post).toHaveBeenCalledTimes(2);
    rerender({ running: true });
    unmount();
    vi.advanceTimersByTime(3 * KEEP_ONLINE_MS);
    expect(post).toHaveBeenCalledTimes(2);
  });
});
