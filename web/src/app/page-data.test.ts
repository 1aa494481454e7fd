import { afterEach, describe, expect, it } from 'vitest';
import { readPageData, takePageData } from './page-data';

function sendWithPage(text: string) {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = 'page-data';
  element.textContent = text;
  document.body.append(element);
}

describe('the data a page came with', () => {
  afterEach(() => {
    document.getElementById('page-data')?.remove();
    takePageData('/api/v1/courses/c1');
  });

  it('answers its API call once, and takes its element out of the page', () => {
    sendWithPage(JSON.stringify({ api: '/api/v1/courses/c1', body: { id: 'c1', name: 'Vision' } }));
    readPageData();
    expect(document.getElementById('page-data')).toBeNull();
    expect(takePageData('/api/v1/courses/c2')).toBeUndefined();
    expect(takePageData('/api/v1/courses/c1')).toEqual({ id: 'c1', name: 'Vision' });
    expect(takePageData('/api/v1/courses/c1')).toBeUndefined();
  });

  it('answers nothing without data, or with data it cannot read', () => {
    readPageData();
    expect(takePageData('/api/v1/courses/c1')).toBeUndefined();
    sendWithPage('{"api": ');
    readPageData();
    expect(takePageData('/api/v1/courses/c1')).toBeUndefined();
    sendWithPage(JSON.stringify({ body: { id: 'c1' } }));
    readPageData();
    expect(takePageData('/api/v1/courses/c1')).toBeUndefined();
  });
});
