import { LIMITS, RENAME_SAFE, type TFileNode } from '@aiedu/contracts';
import { Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { UI_SIZES } from '@aiedu/contracts';

export type NameDialog = { title: string; initial: string; onSubmit(name: string): Promise<void> };

/** Asks for a file or folder name: at most 30 characters, no special characters (spec 5). */
export function FileNameDialog({ dialog, onClose }: { dialog: NameDialog | null; onClose(): void }) {
  const { t } = useTranslation('project');
  const [form] = Form.useForm<{ name: string }>();
  return (
    <Modal
      open={Boolean(dialog)}
      title={dialog?.title}
      width={UI_SIZES.confirmDialogWidth}
      okText={t('tree.ok')}
      cancelText={t('tree.cancel')}
      destroyOnHidden
      onCancel={onClose}
      onOk={() => form.submit()}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ name: dialog?.initial ?? '' }}
        onFinish={async ({ name }) => {
          await dialog?.onSubmit(name.trim());
          onClose();
        }}
      >
        <Form.Item
          name="name"
          label={t('tree.nameLabel')}
          extra={t('tree.nameRule')}
          rules={[
            { required: true, whitespace: true, message: t('tree.nameRule') },
            { max: LIMITS.rename, message: t('tree.nameRule') },
            { pattern: RENAME_SAFE, message: t('tree.nameRule') },
          ]}
        >
          <Input autoFocus maxLength={LIMITS.rename} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function folderOptions(nodes: TFileNode[], rootLabel: string) {
  const options = [{ value: '', label: rootLabel }];
  const walk = (list: TFileNode[]) => {
    for (const node of list) {
      if (node.kind !== 'folder') continue;
      options.push({ value: node.path, label: node.path });
      walk(node.children ?? []);
    }
  };
  walk(nodes);
  return options;
}

export function MoveDialog({
  open,
  nodes,
  onSubmit,
  onClose,
}: {
  open: boolean;
  nodes: TFileNode[];
  onSubmit(folder: string): Promise<void>;
  onClose(): void;
}) {
  const { t } = useTranslation('project');
  const [form] = Form.useForm<{ folder: string }>();
  return (
    <Modal
      open={open}
      title={t('tree.move')}
      width={UI_SIZES.confirmDialogWidth}
      okText={t('tree.ok')}
      cancelText={t('tree.cancel')}
      destroyOnHidden
      onCancel={onClose}
      onOk={() => form.submit()}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ folder: '' }}
        onFinish={async ({ folder }) => {
          await onSubmit(folder);
          onClose();
        }}
      >
        <Form.Item name="folder" label={t('tree.targetFolder')}>
          <Select options={folderOptions(nodes, t('tree.root'))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
