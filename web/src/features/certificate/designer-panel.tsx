import {
  CERT_ALIGNS,
  CERT_FONTS,
  CERT_PAGE,
  type CertElement,
  type CertLayout,
  type TCertElementStyle,
} from '@aiedu/contracts';
import { Input, InputNumber, Select, Switch } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ELEMENT_ORDER, SQUARE_ELEMENTS, clampElement } from './designer-model';

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="designer-panel__field">
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}

/** The selected part's place and style: position, width, font size, colour, alignment, font, visibility, label. */
export function DesignerPanel(props: {
  layout: CertLayout;
  selected: CertElement;
  element: TCertElementStyle;
  onSelect: (key: CertElement) => void;
  onChange: (element: TCertElementStyle) => void;
}) {
  const { layout, selected, element, onSelect, onChange } = props;
  const { t } = useTranslation('certDesign');
  const page = CERT_PAGE[layout];
  const set = (patch: Partial<TCertElementStyle>) => onChange(clampElement({ ...element, ...patch }, layout));
  const text = !SQUARE_ELEMENTS.includes(selected);
  const number = (key: 'x' | 'y' | 'width' | 'fontSize', min: number, max: number) => (
    <Field id={`part-${key}`} label={t(`panel.${key}`)}>
      <InputNumber
        id={`part-${key}`}
        min={min}
        max={max}
        precision={0}
        value={element[key]}
        onChange={(value) => value !== null && set({ [key]: value })}
      />
    </Field>
  );

  return (
    <section className="designer-panel" aria-labelledby="designer-panel-title">
      <h2 id="designer-panel-title">{t('panel.title')}</h2>
      <Field id="part-select" label={t('panel.part')}>
        <Select
          id="part-select"
          value={selected}
          onChange={onSelect}
          options={ELEMENT_ORDER.map((key) => ({ value: key, label: t(`part.${key}`) }))}
        />
      </Field>
      <div className="designer-panel__row">
        {number('x', 0, page.width - 10)}
        {number('y', 0, page.height - 10)}
        {number('width', 10, page.width)}
      </div>
      {text && (
        <>
          <div className="designer-panel__row">
            {number('fontSize', 8, 96)}
            <Field id="part-color" label={t('panel.color')}>
              <input
                id="part-color"
                type="color"
                className="designer-panel__color"
                value={element.color}
                onChange={(event) => set({ color: event.target.value })}
              />
            </Field>
          </div>
          <div className="designer-panel__row">
            <Field id="part-align" label={t('panel.align')}>
              <Select
                id="part-align"
                value={element.align}
                onChange={(align) => set({ align })}
                options={CERT_ALIGNS.map((a) => ({ value: a, label: t(`align.${a}`) }))}
              />
            </Field>
            <Field id="part-font" label={t('panel.font')}>
              <Select
                id="part-font"
                value={element.font}
                onChange={(font) => set({ font })}
                options={CERT_FONTS.map((f) => ({ value: f, label: t(`font.${f}`) }))}
              />
            </Field>
          </div>
          <Field id="part-label" label={t('panel.label')}>
            <Input
              id="part-label"
              maxLength={20}
              value={element.label}
              placeholder={t('panel.labelHint')}
              onChange={(event) => set({ label: event.target.value })}
            />
          </Field>
        </>
      )}
      <Field id="part-visible" label={t('panel.visible')}>
        <Switch
          id="part-visible"
          aria-label={t('panel.visible')}
          checked={element.visible}
          onChange={(visible) => set({ visible })}
        />
      </Field>
    </section>
  );
}
