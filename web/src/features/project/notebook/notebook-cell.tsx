import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  CaretRightOutlined,
  DeleteOutlined,
  EditOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../ui/button';
import { CellOutputs } from './cell-output';
import { CodeEditor } from './code-editor';
import { renderMarkdown } from './markdown';
import type { Cell } from './notebook-model';

export interface NotebookCellProps {
  cell: Cell;
  index: number;
  selected: boolean;
  editing: boolean;
  running: boolean;
  readOnly: boolean;
  onSelect(): void;
  onEdit(editing: boolean): void;
  onChange(source: string): void;
  onRun(advance: boolean): void;
  onMove(delta: -1 | 1): void;
  onDelete(): void;
}

/** One code or text cell: its editor, its execution count and its outputs. */
export function NotebookCell(props: NotebookCellProps) {
  const { t } = useTranslation('project');
  const { cell, index, selected, editing, running, readOnly } = props;
  const position = index + 1;
  const isCode = cell.cell_type === 'code';
  const label = t(isCode ? 'notebook.cellCode' : 'notebook.cellMarkdown', { index: position });
  const showEditor = isCode || editing || !cell.source.trim();
  return (
    <section
      className={`notebook-cell${selected ? ' notebook-cell--selected' : ''}`}
      aria-label={label}
      data-cell-index={index}
      onFocusCapture={props.onSelect}
      onMouseDown={props.onSelect}
    >
      <div className="notebook-cell__gutter" aria-hidden="true">
        {isCode ? `[${running ? '*' : (cell.execution_count ?? ' ')}]` : ''}
      </div>
      <div className="notebook-cell__body">
        {showEditor ? (
          <CodeEditor
            value={cell.source}
            language={isCode ? 'python' : 'text'}
            label={label}
            readOnly={readOnly}
            autoFocus={editing}
            onChange={props.onChange}
            onRun={props.onRun}
            onEscape={() => props.onEdit(false)}
          />
        ) : (
          <div
            className="notebook-cell__markdown"
            dangerouslySetInnerHTML={{ __html: renderMarkdown(cell.source) }}
            onDoubleClick={() => !readOnly && props.onEdit(true)}
          />
        )}
        {isCode && (
          <CellOutputs outputs={cell.outputs} index={position} label={t('notebook.outputs', { index: position })} />
        )}
      </div>
      {!readOnly && (
        <div className="notebook-cell__actions">
          <Button
            kind="icon"
            size="small"
            icon={<CaretRightOutlined />}
            aria-label={t('notebook.run')}
            onClick={() => props.onRun(false)}
          />
          {!isCode && (
            <Button
              kind="icon"
              size="small"
              icon={<EditOutlined />}
              aria-label={t('notebook.editMarkdown')}
              onClick={() => props.onEdit(true)}
            />
          )}
          <Button
            kind="icon"
            size="small"
            icon={<ArrowUpOutlined />}
            aria-label={t('notebook.moveUp')}
            onClick={() => props.onMove(-1)}
          />
          <Button
            kind="icon"
            size="small"
            icon={<ArrowDownOutlined />}
            aria-label={t('notebook.moveDown')}
            onClick={() => props.onMove(1)}
          />
          <Button
            kind="icon"
            size="small"
            icon={<DeleteOutlined />}
            aria-label={t('notebook.deleteCell')}
            onClick={props.onDelete}
          />
        </div>
      )}
    </section>
  );
}
