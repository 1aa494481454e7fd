import { projectApi } from '@aiedu/contracts';
import { currentLanguage } from '../../app/i18n';
import { readSession } from '../../app/session';

export interface UploadAnswer {
  errorCode: string;
  errorMsg: string;
  data: unknown;
}

/** An upload that got no answer of the server's: the network failed, or something on the way answered instead. */
export class UploadError extends Error {
  constructor(readonly reason: 'network' | 'failed') {
    super(`Upload ${reason}`);
  }
}

/**
 * Uploads one file with progress (fetch cannot report upload progress); resolves with the server's envelope, and
 * rejects with an `UploadError` when there is none.
 */
export function uploadFile(
  projectId: string,
  folder: string,
  file: File,
  onProgress: (progress: { percent: number; secondsLeft: number }) => void,
): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${projectApi(projectId).fileUpload}?folder=${encodeURIComponent(folder)}`);
    xhr.setRequestHeader('x-authorization', readSession().token ?? '');
    // The refusal's message comes in the reader's language, as for every other request.
    xhr.setRequestHeader('language', currentLanguage());
    const started = Date.now();
    xhr.upload.onprogress = (event) => {
      if (!event.lengthComputable || event.loaded === 0) return;
      const elapsed = (Date.now() - started) / 1000;
      const secondsLeft = Math.ceil((elapsed / event.loaded) * (event.total - event.loaded));
      onProgress({ percent: Math.round((event.loaded / event.total) * 100), secondsLeft });
    };
    xhr.onload = () => {
      try {
        resolve(JSON.parse(xhr.responseText) as UploadAnswer);
      } catch {
        reject(new UploadError('failed'));
      }
    };
    xhr.onerror = () => reject(new UploadError('network'));
    xhr.ontimeout = () => reject(new UploadError('network'));
    const body = new FormData();
    body.append('file', file);
    xhr.send(body);
  });
}
