import { DownloadOutlined, FileOutlined } from '@ant-design/icons';
import type { TResource } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { resourceUrl } from './course-api';

/** A section resource: video and audio play in place (the server answers byte ranges), others download. */
export function ResourceItem({ resource }: { resource: TResource }) {
  const { t } = useTranslation('course');
  const link = useQuery({ queryKey: ['course', 'resource', resource.id], queryFn: () => resourceUrl(resource.id) });
  const data = link.data;
  const media = resource.mime.startsWith('video/') ? 'video' : resource.mime.startsWith('audio/') ? 'audio' : null;
  return (
    <li className="course-resource">
      <p className="course-resource__name">
        <FileOutlined aria-hidden="true" /> {resource.name}
      </p>
      {data && media && data.preview && media === 'video' && (
        <video controls preload="metadata" src={data.url} className="course-resource__video" aria-label={resource.name}>
          <track kind="captions" />
        </video>
      )}
      {data && media && data.preview && media === 'audio' && (
        <audio controls preload="metadata" src={data.url} aria-label={resource.name} />
      )}
      {data && !data.preview && <Alert type="info" showIcon title={t('detail.tooLarge')} />}
      {data && (
        <a href={data.downloadUrl} download={resource.name} className="course-resource__download">
          <DownloadOutlined aria-hidden="true" /> {t('detail.download')}
        </a>
      )}
    </li>
  );
}
