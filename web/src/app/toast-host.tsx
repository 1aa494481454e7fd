import { TIMINGS, UI_SIZES } from '@aiedu/contracts';
import { message } from 'antd';
import { useEffect } from 'react';
import { AntdScope } from './antd-scope';
import { bindToasts } from './feedback';

/** Global toasts (spec section 9): 2 s, a success 3 s, 86 px from the top. */
const MESSAGE_CONFIG = { duration: TIMINGS.messageToastMs / 1000, top: UI_SIZES.messageTopPx, maxCount: 3 };
const SUCCESS_SECONDS = TIMINGS.successToastMs / 1000;

export function ToastHost() {
  const [api, holder] = message.useMessage(MESSAGE_CONFIG);
  useEffect(
    () =>
      bindToasts(({ type, text }) => {
        void api.open({ type, content: text, ...(type === 'success' ? { duration: SUCCESS_SECONDS } : {}) });
      }),
    [api],
  );
  return <AntdScope>{holder}</AntdScope>;
}
