import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from './query-client';

/** A query whose reads the test answers one by one: `answers[i]` answers the i-th read. */
function heldReads() {
  const answers: ((value: string) => void)[] = [];
  const read = () => new Promise<string>((resolve) => answers.push(resolve));
  return { answers, read };
}

describe('the query client', () => {
  it('reads again a list changed while its first read was on the way, and keeps the newer answer', async () => {
    const client = createQueryClient();
    const { answers, read } = heldReads();
    const observer = new QueryObserver(client, { queryKey: ['tasks'], queryFn: read });
    const seen: (string | undefined)[] = [];
    const stop = observer.subscribe((result) => seen.push(result.data));
    await expect.poll(() => answers.length).toBe(1);

    const refreshed = client.invalidateQueries({ queryKey: ['tasks'] });
    await expect.poll(() => answers.length).toBe(2);
    answers[1]!('after the change');
    answers[0]!('before the change');
    await refreshed;
    expect(client.getQueryData(['tasks'])).toBe('after the change');
    expect(seen).not.toContain('before the change');
    stop();
  });

  it('leaves alone the first reads of lists the change does not name', async () => {
    const client = createQueryClient();
    const { answers, read } = heldReads();
    const observer = new QueryObserver(client, { queryKey: ['courses'], queryFn: read });
    const stop = observer.subscribe(() => undefined);
    await expect.poll(() => answers.length).toBe(1);
    await client.invalidateQueries({ queryKey: ['tasks'] });
    answers[0]!('courses');
    await expect.poll(() => client.getQueryData(['courses'])).toBe('courses');
    expect(answers).toHaveLength(1);
    stop();
  });

  it('lets a read nobody watches finish for the caller waiting on it', async () => {
    const client = createQueryClient();
    const { answers, read } = heldReads();
    const fetched = client.fetchQuery({ queryKey: ['tasks'], queryFn: read });
    await expect.poll(() => answers.length).toBe(1);
    await client.invalidateQueries({ queryKey: ['tasks'] });
    answers[0]!('tasks');
    await expect(fetched).resolves.toBe('tasks');
  });
});
