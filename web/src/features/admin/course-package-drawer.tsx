import { LIMITS, type TCoursePackage } from '@aiedu/contracts';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { useAdminMutation } from './admin-api';
import { CATALOGUE_API } from './catalogue-api';
import { FormDrawer } from './form-drawer';
import { SearchSelect, type Picked } from './search-select';

/** What the drawer changes: the name and courses (also when creating), or the customers given the package. */
export type PackagePart = 'courses' | 'customers';

interface Values {
  name: string;
  courses: Picked[];
  customers: Picked[];
}

const picked = (rows: { id: string; name: string }[]): Picked[] => rows.map((r) => ({ value: r.id, label: r.name }));
const ids = (rows: Picked[]) => rows.map((r) => r.value);

function savePackage(pack: TCoursePackage | null, part: PackagePart, values: Values) {
  if (pack && part === 'customers') {
    return api.put(CATALOGUE_API.packageCustomers(pack.id), { customerIds: ids(values.customers) });
  }
  const body = { name: values.name, courseIds: ids(values.courses) };
  return pack ? api.put(`${CATALOGUE_API.packages}/${pack.id}`, body) : api.post(CATALOGUE_API.packages, body);
}

/**
 * Creates a package or changes its name and courses (published courses that are not private), or gives it to
 * customers, whose teachers and learners then find its courses in the course centre.
 */
export function PackageDrawer({
  pack,
  part,
  onClose,
}: {
  pack: TCoursePackage | null;
  part: PackagePart;
  onClose: () => void;
}) {
  const { t } = useTranslation('catalogue');
  const [form] = Form.useForm<Values>();
  const save = useAdminMutation((values: Values) => savePackage(pack, part, values), [CATALOGUE_API.packages], onClose);
  const title =
    part === 'customers' && pack
      ? t('packages.assignTitle', { name: pack.name })
      : t(pack ? 'packages.edit' : 'packages.new');
  return (
    <FormDrawer
      title={title}
      width={520}
      saving={save.isPending}
      form={form}
      initialValues={{
        name: pack?.name ?? '',
        courses: picked(pack?.courses ?? []),
        customers: picked(pack?.customers ?? []),
      }}
      onFinish={(values) => save.mutate(values)}
      onClose={onClose}
    >
      {part === 'courses' ? (
        <>
          <Form.Item
            name="name"
            label={t('packages.name')}
            rules={[{ required: true, whitespace: true, max: LIMITS.courseTitle, message: t('packages.nameRule') }]}
          >
            <Input maxLength={LIMITS.courseTitle} showCount />
          </Form.Item>
          <Form.Item name="courses" label={t('packages.courses')} extra={t('packages.coursesHint')}>
            <SearchSelect path={CATALOGUE_API.courseSearch} label={t('packages.courses')} />
          </Form.Item>
        </>
      ) : (
        <Form.Item name="customers" label={t('packages.customers')} extra={t('packages.customersHint')}>
          <SearchSelect path={CATALOGUE_API.customerSearch} label={t('packages.customers')} />
        </Form.Item>
      )}
    </FormDrawer>
  );
}
