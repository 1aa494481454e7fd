import { describe, expect, it } from 'vitest';
import { likeText } from './like.js';

describe('likeText', () => {
  it('wraps the text in % and escapes the wildcards and the escape character', () => {
    expect(likeText('math')).toBe('%math%');
    expect(likeText('100%')).toBe('%100\\%%');
    expect(likeText('a_b')).toBe('%a\\_b%');
    expect(likeText('C:\\data')).toBe('%C:\\\\data%');
  });
});
