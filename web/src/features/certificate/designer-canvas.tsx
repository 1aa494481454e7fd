import { CERT_PAGE, type CertElement, type TCertDesign, type TCertElementStyle } from '@aiedu/contracts';
import { Segmented } from 'antd';
import { useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ELEMENT_ORDER, SQUARE_ELEMENTS, boxHeight, clampElement } from './designer-model';

const ZOOMS = [0.5, 0.75, 1] as const;
const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

interface Drag {
  key: CertElement;
  mode: 'move' | 'resize';
  pointerX: number;
  pointerY: number;
  start: TCertElementStyle;
}

/**
 * The certificate at true scale (one CSS pixel per designer pixel, zoomable on small screens): the background image
 * and each part as a button the pointer drags (or widens by its right edge) and the arrow keys nudge, 1 px at a
 * time or 10 with Shift.
 */
export function DesignerCanvas(props: {
  design: TCertDesign;
  backgroundUrl: string | null;
  sealUrl: string | null;
  selected: CertElement;
  onSelect: (key: CertElement) => void;
  onChange: (key: CertElement, element: TCertElementStyle) => void;
  sample: Record<CertElement, string>;
}) {
  const { design, backgroundUrl, sealUrl, selected, onSelect, onChange, sample } = props;
  const { t } = useTranslation('certDesign');
  const page = CERT_PAGE[design.layout];
  const [zoom, setZoom] = useState<number>(1);
  const drag = useRef<Drag | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  // The page opens at the largest zoom that fits its column (a landscape page is wider than most), and again when the
  // layout changes; the user's own choice holds until then.
  useLayoutEffect(() => {
    const room = scroller.current?.clientWidth ?? 0;
    if (room > 0) setZoom([...ZOOMS].reverse().find((z) => page.width * z <= room) ?? ZOOMS[0]);
  }, [page.width]);

  const move = (key: CertElement, patch: Partial<TCertElementStyle>) =>
    onChange(key, clampElement({ ...design.elements[key], ...patch }, design.layout));

  const startDrag = (key: CertElement, mode: Drag['mode']) => (event: PointerEvent<HTMLElement>) => {
    if (event.button !== 0) return;
    event.stopPropagation();
    onSelect(key);
    drag.current = { key, mode, pointerX: event.clientX, pointerY: event.clientY, start: design.elements[key] };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    const current = drag.current;
    if (!current) return;
    const dx = (event.clientX - current.pointerX) / zoom;
    const dy = (event.clientY - current.pointerY) / zoom;
    if (current.mode === 'move') move(current.key, { x: current.start.x + dx, y: current.start.y + dy });
    else move(current.key, { width: current.start.width + dx });
  };
  const endDrag = () => void (drag.current = null);

  const onKeyDown = (key: CertElement) => (event: KeyboardEvent<HTMLElement>) => {
    const arrow = ARROWS[event.key];
    if (!arrow) return;
    event.preventDefault();
    const step = event.shiftKey ? 10 : 1;
    const element = design.elements[key];
    move(key, { x: element.x + arrow[0] * step, y: element.y + arrow[1] * step });
  };

  return (
    <div className="designer-canvas">
      <Segmented
        size="small"
        aria-label={t('canvas.zoom')}
        value={zoom}
        onChange={(value) => setZoom(Number(value))}
        options={ZOOMS.map((z) => ({ value: z, label: `${z * 100}%` }))}
      />
      <div className="designer-canvas__scroll" tabIndex={-1} ref={scroller}>
        <div className="designer-canvas__sizer" style={{ width: page.width * zoom, height: page.height * zoom }}>
          <div
            className="designer-page"
            data-testid="designer-page"
            role="group"
            aria-label={t('canvas.label', { width: page.width, height: page.height })}
            style={{
              width: page.width,
              height: page.height,
              transform: zoom === 1 ? undefined : `scale(${zoom})`,
              backgroundImage: backgroundUrl ? `url("${backgroundUrl}")` : undefined,
            }}
            onPointerMove={onPointerMove}
            onPointerUp={endDrag}
            onPointerCancel={endDrag}
          >
            {ELEMENT_ORDER.map((key) => {
              const element = design.elements[key];
              const name = t(`part.${key}`);
              return (
                <button
                  key={key}
                  type="button"
                  className="designer-part"
                  data-part={key}
                  data-hidden={!element.visible || undefined}
                  aria-pressed={selected === key}
                  aria-label={t('canvas.part', { name, x: element.x, y: element.y })}
                  style={{
                    left: element.x,
                    top: element.y,
                    width: element.width,
                    height: boxHeight(key, element),
                    fontSize: element.fontSize,
                    color: element.color,
                    textAlign: element.align,
                    fontWeight: element.font === 'bold' ? 700 : 400,
                  }}
                  onPointerDown={startDrag(key, 'move')}
                  onFocus={() => onSelect(key)}
                  onKeyDown={onKeyDown(key)}
                >
                  {key === 'seal' && sealUrl ? (
                    <img src={sealUrl} alt="" draggable={false} />
                  ) : SQUARE_ELEMENTS.includes(key) ? (
                    <span className="designer-part__placeholder">{name}</span>
                  ) : (
                    <span className="designer-part__text">
                      {element.label}
                      {sample[key]}
                    </span>
                  )}
                  <span className="designer-part__resize" aria-hidden onPointerDown={startDrag(key, 'resize')} />
                </button>
              );
            })}
          </div>
        </div>
      </div>
      <p className="admin-muted">{t('canvas.hint')}</p>
    </div>
  );
}
