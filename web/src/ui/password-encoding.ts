/**
 * Every password travels as base64 of its UTF-8 bytes (DECISIONS, "API contract"). `btoa` alone
 * only takes Latin-1, so the text is encoded to UTF-8 first.
 */
export function encodePassword(plain: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(plain)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
