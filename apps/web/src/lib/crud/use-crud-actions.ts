import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { toastWarning } from '../feedback/feedback.ts';
import { type OutcomeAction, toastFailed, toastSucceeded } from '../feedback/outcome.ts';
import { useCan } from '../permission/permission.tsx';
import { isRequestError } from '../request/index.ts';
import { selectionProblem } from './selection.ts';
import type {
  CallOptions,
  CrudContext,
  CrudForm,
  CrudRemove,
  CrudResource,
  DialogMode,
  RowAction,
  ToolbarAction,
} from './types.ts';
import type { CrudTable } from './use-crud-table.ts';

const SILENT: CallOptions = { silent: true, canCancel: false };

/**
 * Row and toolbar actions: the built-in edit and delete around the page's own, the selection each needs,
 * confirmation, and (with an outcome) the generic success or "{failure text}: {error}" and a refresh.
 */
export function useCrudActions<Row extends object, S extends z.ZodType>({
  id,
  table,
  form,
  resource,
  remove,
  rowActions,
  openDialog,
}: {
  id: string;
  table: CrudTable<Row>;
  form: CrudForm<Row, S> | undefined;
  resource: CrudResource<Row, z.output<S>> | undefined;
  remove: CrudRemove<Row> | undefined;
  rowActions: readonly RowAction<Row>[];
  openDialog: (mode: DialogMode, row: Row | null, defaults?: Record<string, unknown>) => void;
}) {
  const { t } = useTranslation('crud');
  const { modal } = App.useApp();
  const can = useCan();

  const context = (callOptions: CallOptions): CrudContext<Row> => ({
    refresh: table.refresh,
    openCreate: (defaults) => openDialog('create', null, defaults),
    openEdit: (row) => openDialog('edit', row),
    selectedRows: table.selectedRows,
    clearSelection: table.clearSelection,
    query: table.filterQuery,
    callOptions,
  });

  const perform = (
    action: { outcome?: OutcomeAction | undefined; danger?: boolean | undefined },
    confirm: { title: string; text: string } | undefined,
    invoke: (callOptions: CallOptions) => unknown,
  ) => {
    const go = async () => {
      try {
        await invoke(action.outcome ? SILENT : {});
      } catch (error) {
        if (action.outcome) toastFailed(action.outcome, error);
        else if (!isRequestError(error)) console.error(error); // request failures are shown by the request layer
        return;
      }
      if (action.outcome) {
        toastSucceeded(action.outcome);
        table.clearSelection();
        table.refresh();
      }
    };
    if (!confirm) {
      void go();
      return;
    }
    void modal.confirm({
      title: confirm.title,
      content: confirm.text,
      okText: t('confirm.ok'),
      cancelText: t('confirm.cancel'),
      okButtonProps: { danger: action.danger, 'data-testid': `${id}-confirm-ok` } as never,
      onOk: go,
    });
  };

  const update = form && resource?.update;
  const edit: RowAction<Row>[] = update
    ? [
        {
          key: 'edit',
          label: t('action.edit'),
          endpoint: update.endpoint,
          ...(form.editable ? { when: form.editable } : {}),
          run: (row) => openDialog('edit', row),
        },
      ]
    : [];
  const removal = resource?.remove;
  const del: RowAction<Row>[] = removal
    ? [
        {
          key: 'delete',
          label: t('action.delete'),
          endpoint: removal.endpoint,
          danger: true,
          outcome: 'delete',
          ...(remove?.when ? { when: remove.when } : {}),
          confirm: (row) =>
            remove?.name ? t('confirm.delete', { name: remove.name(row) }) : t('confirm.deleteRecord'),
          run: (row, ctx) => removal.run(row, ctx.callOptions),
        },
      ]
    : [];
  /** Row actions the user holds the key of, in order: edit, the page's own, delete. */
  const heldRowActions = [...edit, ...rowActions, ...del].filter((action) => can(action.endpoint));

  const runRowAction = (action: RowAction<Row>, row: Row) => {
    const text = action.confirm?.(row);
    const title = action.key === 'delete' && removal ? t('confirm.deleteTitle') : t('confirm.title');
    perform(action, text ? { title, text } : undefined, (callOptions) =>
      action.run(row, context(callOptions)),
    );
  };

  const runToolbarAction = (action: ToolbarAction<Row>) => {
    const problem = selectionProblem(action.needs, table.selectedRows.length);
    if (problem) {
      toastWarning(t(`selection.${problem}`));
      return;
    }
    const text = action.confirm?.(table.selectedRows);
    perform(action, text ? { title: t('confirm.title'), text } : undefined, (callOptions) =>
      action.run(table.selectedRows, context(callOptions)),
    );
  };

  return { heldRowActions, runRowAction, runToolbarAction };
}
