import { UI_SIZES } from '@aiedu/contracts';
import { i18n } from '../../app/i18n';
import type { Modal } from 'antd';
import { type ModalFuncProps } from 'antd';

export type ModalApi = ReturnType<typeof Modal.useModal>[0];

/** A destructive action's confirmation: 472 px wide (spec section 9), saying what will be lost. */
export function confirmDanger(
  modal: ModalApi,
  props: Pick<ModalFuncProps, 'title' | 'content' | 'okText' | 'cancelText' | 'onOk'>,
) {
  const { onOk } = props;
  return modal.confirm({
    ...props,
    // A refused action was already told (the API client shows the refusal): the dialog closes on it, and the
    // rejection, which the library passes on, is not left unhandled.
    onOk: onOk && ((close: () => void) => Promise.resolve(onOk(close)).catch(() => undefined)),
    width: UI_SIZES.confirmDialogWidth,
    okButtonProps: { danger: true },
  });
}

/** The confirmation of a deletion: Delete (danger) or Cancel, in the administration's words. */
export function confirmDelete(modal: ModalApi, props: Pick<ModalFuncProps, 'title' | 'content' | 'onOk'>) {
  return confirmDanger(modal, {
    ...props,
    okText: i18n.t('admin:common.delete'),
    cancelText: i18n.t('admin:common.cancel'),
  });
}
