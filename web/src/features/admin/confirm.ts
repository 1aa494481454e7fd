import { UI_SIZES } from '@aiedu/contracts';
import type { Modal } from 'antd';
import { type ModalFuncProps } from 'antd';

export type ModalApi = ReturnType<typeof Modal.useModal>[0];

/** A destructive action's confirmation: 472 px wide (spec section 9), saying what will be lost. */
export function confirmDanger(
  modal: ModalApi,
  props: Pick<ModalFuncProps, 'title' | 'content' | 'okText' | 'cancelText' | 'onOk'>,
) {
  return modal.confirm({ ...props, width: UI_SIZES.confirmDialogWidth, okButtonProps: { danger: true } });
}
