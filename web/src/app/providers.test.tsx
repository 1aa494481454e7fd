import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppProviders } from './providers';
import { createQueryClient } from './query-client';
import { clearSession, saveLogin } from './session';

describe('the app providers', () => {
  it('forget what was loaded for the user when the session ends', () => {
    const queryClient = createQueryClient();
    const view = render(
      <AppProviders queryClient={queryClient}>
        <p>page</p>
      </AppProviders>,
    );
    saveLogin({ token: 't', refreshToken: 'r', userId: 'u-1', roles: ['ROLE_STUDENT'] });
    queryClient.setQueryData(['/gw/api/v1/user/userInfo'], { id: 'u-1', nickname: 'Ada' });
    queryClient.setQueryData(['course', 'study'], [{ id: 'c-1' }]);

    clearSession();

    expect(queryClient.getQueryCache().getAll()).toEqual([]);
    view.unmount();
  });
});
