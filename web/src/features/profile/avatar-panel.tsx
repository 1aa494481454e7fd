import { UploadOutlined, UserOutlined } from '@ant-design/icons';
import { hasExtension, IMAGE_TYPES_BMP, LIMITS } from '@aiedu/contracts';
import { Avatar, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useUserInfo } from '../../app/user-info';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';
import { formErrorMessage } from '../sign/sign-api';
import { useResetAvatar, useUploadAvatar } from './profile-api';

/**
 * The avatar: JPG, PNG, BMP or JPEG up to 5 MB (spec 5). The browser checks type and size first so
 * a child is told at once; the server checks the bytes again and re-encodes the picture.
 */
export function AvatarPanel() {
  const { t } = useTranslation('profile');
  const user = useUserInfo();
  const upload = useUploadAvatar();
  const reset = useResetAvatar();
  const [error, setError] = useState<string>();
  const avatarUrl = user.data?.avatarUrl ?? undefined;

  function choose(file: File) {
    setError(undefined);
    if (!hasExtension(file.name, IMAGE_TYPES_BMP)) setError(t('avatar.wrongType'));
    else if (file.size > LIMITS.avatarBytes) setError(t('avatar.tooLarge'));
    else
      upload.mutate(file, {
        onSuccess: () => toast.success(t('avatar.saved')),
        onError: (failure) => setError(formErrorMessage(failure)),
      });
    // The upload is ours, not the component's.
    return false;
  }

  return (
    <div className="profile-avatar">
      <Avatar size={96} src={avatarUrl} icon={<UserOutlined />} alt={t('avatar.current')} />
      <div>
        <p>{t('avatar.hint')}</p>
        <Upload accept=".jpg,.jpeg,.png,.bmp" showUploadList={false} beforeUpload={choose}>
          <Button kind="primary" icon={<UploadOutlined />} loading={upload.isPending}>
            {t('avatar.choose')}
          </Button>
        </Upload>{' '}
        {avatarUrl && (
          <Button kind="secondary" loading={reset.isPending} onClick={() => reset.mutate()}>
            {t('avatar.reset')}
          </Button>
        )}
        <FormError message={error} />
      </div>
    </div>
  );
}
