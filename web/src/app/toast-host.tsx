import { TIMINGS, UI_SIZES } from '@aiedu/contracts';
import { message } from 'antd';
import { useEffect } from 'react';
import { AntdScope } from './antd-scope';
import { bindToasts } from './feedback';

/** Global toasts (spec section 9): 2 s, 86 px from the top. */
const MESSAGE_CONFIG = { duration: TIMINGS.messageToastMs / 1000, top: UI_SIZES.messageTopPx, maxCount: 3 };

export function ToastHost() {
  const [api, holder] = message.useMessage(MESSAGE_CONFIG);
  useEffect(() => bindToasts((toast) => void api[toast.type](toast.text)), [api]);
  return <AntdScope>{holder}</AntdScope>;
}
