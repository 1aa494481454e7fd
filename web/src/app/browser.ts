/**
 * Leaving the app's own navigation: a full reload, or an address outside the router (a sign-in
 * provider). One object, so tests can watch what would otherwise unload the page.
 */
export const browser = {
  reload: (): void => window.location.reload(),
  assign: (url: string): void => window.location.assign(url),
};
