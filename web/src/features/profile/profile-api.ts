import {
  API,
  type TTeacherCertification,
  type TTeacherCertificationRequest,
  type TTokenPair,
  type TUpdateUserInfoRequest,
  type TUserInfo,
} from '@aiedu/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { saveTokens } from '../../app/session';
import { cacheUserInfo, USER_INFO_QUERY_KEY } from '../../app/user-info';
import { encodePassword } from '../../ui/password-encoding';
import { FORM } from '../sign/sign-api';

/** The profile calls of spec section 7 ("User"). Refusals a form shows itself are not toasted. */

/** Saves a changed profile into the cache the header and every page read. */
function useSaveUserInfo() {
  const queryClient = useQueryClient();
  return (info: TUserInfo) => {
    cacheUserInfo(info);
    queryClient.setQueryData(USER_INFO_QUERY_KEY, info);
  };
}

export function useUpdateUserInfo() {
  const save = useSaveUserInfo();
  return useMutation({
    mutationFn: (body: TUpdateUserInfoRequest) => api.put<TUserInfo>(API.userInfo, body, FORM),
    onSuccess: save,
  });
}

export function useBindContact() {
  const save = useSaveUserInfo();
  return useMutation({
    mutationFn: (body: { target: string; verifyCode: string }) => api.put<TUserInfo>(API.bindContact, body, FORM),
    onSuccess: save,
  });
}

/** Sets the avatar address in the cached profile, so the header changes at once. */
function useSaveAvatar() {
  const queryClient = useQueryClient();
  const save = useSaveUserInfo();
  return (avatarUrl: string | null) => {
    const info = queryClient.getQueryData<TUserInfo>(USER_INFO_QUERY_KEY);
    if (info) save({ ...info, avatarUrl });
  };
}

export function useUploadAvatar() {
  const saveAvatar = useSaveAvatar();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return api.post<{ avatarUrl: string }>(API.avatarUpload, form, FORM);
    },
    onSuccess: ({ avatarUrl }) => saveAvatar(avatarUrl),
  });
}

export function useResetAvatar() {
  const saveAvatar = useSaveAvatar();
  return useMutation({
    mutationFn: () => api.put<null>(API.avatar, { avatar: null }, FORM),
    onSuccess: () => saveAvatar(null),
  });
}

export const CERTIFICATION_QUERY_KEY = [API.teacherCertification] as const;

export function useCertification() {
  return useQuery({
    queryKey: CERTIFICATION_QUERY_KEY,
    queryFn: () => api.get<TTeacherCertification | null>(API.teacherCertification),
  });
}

export function useRequestCertification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TTeacherCertificationRequest) =>
      api.post<TTeacherCertification>(API.teacherCertification, body, FORM),
    onSuccess: (request) => queryClient.setQueryData(CERTIFICATION_QUERY_KEY, request),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: ({ oldPassword, newPassword }: { oldPassword: string; newPassword: string }) =>
      api.put<TTokenPair>(
        API.changePassword,
        { oriPasswd: encodePassword(oldPassword), newPasswd: encodePassword(newPassword) },
        FORM,
      ),
    // The change ends every other session; this one continues on the new pair.
    onSuccess: (pair) => saveTokens(pair.token, pair.refreshToken),
  });
}

export function searchSchools(partName: string): Promise<Array<{ id: string; name: string }>> {
  return api.get<Array<{ id: string; name: string }>>(API.fuzzySearchSchool, { query: { partName } });
}
