import { PlusOutlined } from '@ant-design/icons';
import { CERT_API, CERT_TYPES, type TCert } from '@aiedu/contracts';
import { Button, Modal, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ADMIN_PATHS } from '../../app/paths';
import { useAdminMutation } from '../admin/admin-api';
import { AdminShell } from '../admin/admin-shell';
import { confirmDelete } from '../admin/confirm';
import { FilterSelect, ListTable, RowActions, SearchBar } from '../admin/list-controls';
import { useListQuery } from '../admin/use-list-query';
import { exampleNumber } from './designer-model';
import { deleteTemplate } from './template-api';
import './designer.css';

const editPath = (certId: string) => ADMIN_PATHS.certificateEdit.replace(':certId', certId);

/**
 * The certificate templates: search by name, filter by type, page through; create, edit and delete (certificates
 * already issued keep their own copy of the design and stay valid). Issuing happens on its own screen.
 */
export function CertificateTemplatesPage() {
  const { t, i18n } = useTranslation('certDesign');
  const navigate = useNavigate();
  const list = useListQuery<TCert>(CERT_API.cert);
  const [modal, modalHost] = Modal.useModal();
  const removal = useAdminMutation((certId: string) => deleteTemplate(certId), [CERT_API.cert, CERT_API.certOptions]);
  const when = new Intl.DateTimeFormat(i18n.language.replace('_CHS', '-Hans').replace('_CHT', '-Hant'), {
    dateStyle: 'medium',
    timeStyle: 'short',
  });

  const askDelete = (cert: TCert) =>
    confirmDelete(modal, {
      title: t('list.deleteTitle', { name: cert.name }),
      content: t('list.deleteBody', { count: cert.issuedCount }),
      onOk: () => removal.mutateAsync(cert.id),
    });

  const columns: TableColumnsType<TCert> = [
    {
      title: t('field.name'),
      key: 'name',
      render: (_, r) => (
        <>
          <Link to={editPath(r.id)}>{r.name}</Link>
          {r.remark && <div className="admin-muted">{r.remark}</div>}
        </>
      ),
    },
    { title: t('field.type'), key: 'type', render: (_, r) => t(`type.${r.type}`) },
    { title: t('field.layout'), key: 'layout', render: (_, r) => t(`layout.${r.layout}`) },
    {
      title: t('field.numberRule'),
      key: 'numberRule',
      render: (_, r) => <code>{exampleNumber(r.numberRule.prefix, r.numberRule.digits)}</code>,
    },
    { title: t('list.issued'), dataIndex: 'issuedCount' },
    { title: t('list.creator'), dataIndex: 'creatorName' },
    { title: t('list.updated'), key: 'updatedAt', render: (_, r) => when.format(new Date(r.updatedAt)) },
    {
      title: t('common.actions', { ns: 'admin' }),
      key: 'actions',
      render: (_, r) => <RowActions onEdit={() => void navigate(editPath(r.id))} onDelete={() => askDelete(r)} />,
    },
  ];

  const actions = (
    <>
      <Button onClick={() => void navigate(ADMIN_PATHS.certificateIssuance)}>{t('list.toIssuance')}</Button>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(ADMIN_PATHS.certificateNew)}>
        {t('list.new')}
      </Button>
    </>
  );

  return (
    <AdminShell screen="certificates" actions={actions}>
      <>{modalHost}</>
      <p className="admin-muted">{t('list.lead')}</p>
      <div className="admin-toolbar">
        <SearchBar label={t('list.search')} onSearch={(keyword) => list.setFilters({ keyword })} />
        <FilterSelect
          label={t('list.typeFilter')}
          options={CERT_TYPES.map((type) => ({ value: type, label: t(`type.${type}`) }))}
          onChange={(type) => list.setFilters({ type })}
          width={180}
        />
      </div>
      <ListTable<TCert> list={list} columns={columns} />
    </AdminShell>
  );
}
