/**
 * The `ILIKE` pattern for "contains this text": the searcher's `%`, `_` and `\` are escaped so that a search for
 * "100%" or "a_b" finds exactly those characters rather than treating them as wildcards.
 */
export const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
