import { MinusCircleOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { BANNER_TYPES, LIMITS, ZHttpUrl, type TInstitutionHome } from '@aiedu/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Col, Form, Input, Row, Select, Space, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { toast } from '../../app/feedback';
import { readSession } from '../../app/session';
import { schemaRule } from '../../ui/form-rules';
import { AdminShell } from './admin-shell';
import { ADMIN_API, useAdminMutation } from './admin-api';
import { HomePreview } from './home-preview';

interface Values {
  bannerLinks: string[];
  projectTypes: string[];
  footerSites: { name: string; url: string }[];
}

/**
 * The institution's home: three banners with links, up to six project types, footer sites, and (to read only: a
 * super administrator sets them) the modules each side may use.
 */
export function InstitutionHomePage() {
  const { t } = useTranslation('admin');
  const client = useQueryClient();
  const custcode = readSession().custcode ?? '';
  const [form] = Form.useForm<Values>();
  const home = useQuery({
    queryKey: [ADMIN_API.home, custcode],
    queryFn: () => api.get<TInstitutionHome>(ADMIN_API.home, { query: { custcode } }),
    enabled: custcode !== '',
  });
  const save = useAdminMutation((values: Values) => api.put(ADMIN_API.institutionHome, values), [ADMIN_API.home]);
  const watched = Form.useWatch([], form) as Values | undefined;

  async function uploadBanner(slot: number, file: File) {
    const body = new FormData();
    body.append('link', form.getFieldValue(['bannerLinks', slot]) ?? '');
    body.append('file', file);
    await api.post(`${ADMIN_API.institutionHome}/banners/${slot}`, body);
    toast.success(t('common.saved'));
    await client.invalidateQueries({ queryKey: [ADMIN_API.home] });
  }

  const data = home.data;
  if (!data) return <AdminShell screen="institutionHome">{null}</AdminShell>;
  return (
    <AdminShell
      screen="institutionHome"
      actions={
        <Button type="primary" htmlType="submit" form="institution-home-form" loading={save.isPending}>
          {t('common.save')}
        </Button>
      }
    >
      <Row gutter={24}>
        <Col xs={24} xl={13}>
          <Form<Values>
            id="institution-home-form"
            form={form}
            layout="vertical"
            initialValues={{
              bannerLinks: [0, 1, 2].map((i) => data.banners[i]?.link ?? ''),
              projectTypes: data.projectTypes,
              footerSites: data.footerSites,
            }}
            onFinish={(values) => save.mutate(values)}
          >
            <Card title={<h2 className="ant-card-head-title">{t('home.banners')}</h2>} size="small">
              <p>{t('home.bannerHint')}</p>
              {[0, 1, 2].map((slot) => (
                <Space key={slot} align="start" wrap style={{ display: 'flex' }}>
                  <Form.Item
                    name={['bannerLinks', slot]}
                    label={t('home.bannerLink', { n: slot + 1 })}
                    rules={[schemaRule(ZHttpUrl.optional(), t('form.url'))]}
                  >
                    <Input style={{ width: 280, maxWidth: '100%' }} placeholder={t('home.urlPlaceholder')} />
                  </Form.Item>
                  <Form.Item label={t('home.bannerImage', { n: slot + 1 })}>
                    <Upload
                      accept={BANNER_TYPES.map((e) => `.${e}`).join(',')}
                      showUploadList={false}
                      beforeUpload={(file) => {
                        if (file.size > LIMITS.bannerBytes) toast.error(t('home.bannerTooLarge'));
                        else void uploadBanner(slot, file);
                        return false;
                      }}
                    >
                      <Button icon={<UploadOutlined />}>{t('home.upload')}</Button>
                    </Upload>
                  </Form.Item>
                </Space>
              ))}
            </Card>
            <Card
              title={<h2 className="ant-card-head-title">{t('home.projectTypes')}</h2>}
              size="small"
              style={{ marginTop: 16 }}
            >
              <Form.Item
                name="projectTypes"
                rules={[{ type: 'array', max: LIMITS.homeProjectTypes, message: t('home.tooManyTypes') }]}
                extra={t('home.projectTypesHint')}
              >
                <Select
                  mode="tags"
                  aria-label={t('home.projectTypes')}
                  open={false}
                  maxCount={LIMITS.homeProjectTypes}
                />
              </Form.Item>
            </Card>
            <Card
              title={<h2 className="ant-card-head-title">{t('home.footer')}</h2>}
              size="small"
              style={{ marginTop: 16 }}
            >
              <Form.List name="footerSites">
                {(fields, { add, remove }) => (
                  <>
                    {fields.map((field) => (
                      <Space key={field.key} align="start" wrap>
                        <Form.Item
                          name={[field.name, 'name']}
                          rules={[{ required: true, max: 30, message: t('form.required') }]}
                        >
                          <Input aria-label={t('home.siteName')} placeholder={t('home.siteName')} />
                        </Form.Item>
                        <Form.Item
                          name={[field.name, 'url']}
                          rules={[{ required: true, message: t('form.url') }, schemaRule(ZHttpUrl, t('form.url'))]}
                        >
                          <Input aria-label={t('home.siteUrl')} placeholder={t('home.urlPlaceholder')} />
                        </Form.Item>
                        <Button
                          type="text"
                          aria-label={t('common.delete')}
                          icon={<MinusCircleOutlined />}
                          onClick={() => remove(field.name)}
                        />
                      </Space>
                    ))}
                    <Button icon={<PlusOutlined />} onClick={() => add({ name: '', url: '' })}>
                      {t('home.addSite')}
                    </Button>
                  </>
                )}
              </Form.List>
            </Card>
            <Card
              title={<h2 className="ant-card-head-title">{t('home.modules')}</h2>}
              size="small"
              style={{ marginTop: 16 }}
            >
              <p>{t('home.modulesHint')}</p>
              <dl className="admin-modules">
                {(['teacher', 'student'] as const).map((side) => (
                  <div key={side}>
                    <dt>{t(side === 'teacher' ? 'home.teacherSide' : 'home.studentSide')}</dt>
                    <dd>
                      {data.modules[side].length === 0
                        ? t('home.noModules')
                        : data.modules[side].map((m) => t(`modules.${m}`)).join(', ')}
                    </dd>
                  </div>
                ))}
              </dl>
            </Card>
          </Form>
        </Col>
        <Col xs={24} xl={11}>
          <HomePreview home={data} values={watched} />
        </Col>
      </Row>
    </AdminShell>
  );
}
