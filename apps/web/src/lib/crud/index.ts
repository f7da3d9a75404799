/**
 * The CRUD page kit (STYLE.md point 7): a feature declares its columns, search fields, dialog form, actions
 * (each with the endpoint it calls) and endpoints; `<CrudPage>` renders the search form (search / reset), the
 * table with the spec's paging (page 1, 20 rows, 10–100; index column 55 px), server sort (`sort` /
 * `ascending`), optional row selection, empty and error states, refresh, density, column settings, CSV
 * export (this page, or all through the page's export endpoint), the create / edit dialog (50 %, saving
 * state, server field errors on the fields, 'please wait' while saving, confirmation of unsaved changes),
 * delete confirmation, and the generic success / "{failure text}: {error}" messages. Every button goes
 * through `<Can endpoint>`: it is rendered only for users who may call its endpoint (the endpoint's `access`
 * and feature flags in the contracts); no page names a permission key.
 *
 * ```tsx
 * export function RolesPage() {
 *   const { t } = useTranslation('role');
 *   return (
 *     <CrudPage<RoleListRow, typeof roleForm>
 *       id="roles"
 *       title={t('title')}
 *       rowKey="id"
 *       query={api.role.queryPage}                      // paged mode; `load` for lists and trees
 *       columns={[
 *         { key: 'name', title: t('column.name'), sortable: true },
 *         { key: 'createdAt', title: t('column.createdAt'), format: 'dateTime', sortable: true },
 *       ]}
 *       search={[{ kind: 'text', name: 'name', label: t('column.name') }]}
 *       resource={crudResource({ save: api.role.save, update: api.role.update, del: api.role.del })}
 *       form={{
 *         schema: roleForm,                              // the contracts' zod schema, also run per field
 *         title: { create: t('dialog.create'), edit: t('dialog.edit') },
 *         label: (field) => t(`column.${field}`),       // the page's key convention
 *         testId: 'role',                                // inputs made by SchemaField: role-name, ...
 *         fields: () => <SchemaField name="name" />,     // label, rule and input from roleForm.name
 *         editable: (row) => row.abilities.update,       // what the server says of each row
 *       }}
 *       remove={{ name: (row) => row.name, when: (row) => row.abilities.delete }}
 *       rowActions={[{ key: 'grant', label: t('grant'), endpoint: api.permission.saveGrants, run: openGrant }]}
 *     />
 *   );
 * }
 * ```
 *
 * - `crudResource` wires create (`save`, body = the form's values), update (`update`, the values and the
 *   row's `id`) and delete (`del`, query `{ id }`); `body` maps the values when the endpoint wants more.
 *   A page whose endpoint takes another shape passes `resource={{ update: { endpoint, save } }}` itself.
 * - Pass the `options` the kit hands to `save` / `run` on to `call`: they make the call silent, because
 *   the kit shows the failure itself ("{failure text}: {error}"), and keep it from being cancelled.
 * - Tree tables: `load={useTreeLoad(api.x.getTree, { text: 'name', matches })}` (list mode, no paging,
 *   searched by `searchTree`) + `tree={{ defaultExpandAll: true }}`; choosers of the same tree read it with
 *   `useTree(api.x.getTree)`. Master-detail: `sider={<TreeSider ... onSelect={setDeptId} />}` +
 *   `fixedQuery={{ deptId }}`.
 * - Toolbar actions on selected rows: `selection="multiple"` and `needs: 'some'` (or `'one'`); the kit
 *   shows 'tick at least one record' / 'select a row first'. An `outcome` ('delete', 'reset', ...) gives
 *   the generic texts and refreshes the table after success.
 * - Export: `exports={{ endpoint?, pageFromEndpoint? }}` (the buttons follow the endpoint's access; without
 *   one, whoever sees the page may export it); the endpoint's file (CSV, xlsx, ...) is
 *   saved as it comes, named by `Content-Disposition` or after its `Content-Type`; `pageFromEndpoint` makes
 *   "export this page" call it with the page's paging too; code 1060 shows
 *   'export data too large, please filter'. `range: '<field>'` makes "export all" need that date-time
 *   range, at most a year (spec §5): the reason shows on the search field. Record pages use
 *   `timeRangeSearchField(label)` with `range: TIME_RANGE_FIELD`.
 * - Search choices no list can hold (a device searched on the server as the user types): `kind: 'custom'`
 *   with `input: ({ value, onChange, testId }) => <DeviceSelect ... />`; its value is sent as it is.
 * - Date-time ranges: the end must be later than the start (a field error; nothing is called);
 *   `presets: ['week', 'month', 'threeMonths', 'year']` narrows the quick ranges.
 * - Test ids: `<id>-page`, `<id>-search-<field>` (a date-time range puts it on both inputs: `.first()` is
 *   the start), `<id>-search-submit` / `-reset`, `<id>-table`,
 *   `<id>-create`, `<id>-toolbar-<key>`, `<id>-row-<key>` (`edit`, `delete`; `more` opens the menu of
 *   the actions marked `more: true`, whose items keep their own `<id>-row-<key>`), `<id>-dialog`
 *   (`-submit`, `-cancel`, `-discard`), `<id>-confirm-ok`, `<id>-export` (`-page`, `-all`), `<id>-refresh`,
 *   `<id>-error`. Inputs made by `SchemaField` get `<form.testId>-<field>`.
 * - Dialog fields: `<SchemaField name="x" />` inside `fields` takes the label from `form.label(field)`, the
 *   rule from the schema and, without children, the input from the field's type (text with its length
 *   limit, a multi-line field past 128 characters, whole numbers, yes / no); children give choices and
 *   custom inputs. Outside the kit, `<SchemaForm schema label testId>` binds the fields of any form.
 * - Row policies: what a row offers comes from the server (`row.abilities.delete`), never from a copy of
 *   its rule in the page: `editable: (row) => row.abilities.update`, `remove={{ when: ... }}`.
 *
 * How it is built (each part reads on its own): `crud-page.tsx` composes them; `use-crud-table.ts` holds the
 * query, paging, sort, selection and tree state; `use-crud-actions.ts` the row and toolbar actions (edit and
 * delete included); `use-crud-dialog.ts` the dialog's openings and `crud-dialog.tsx` the dialog;
 * `crud-toolbar.tsx` the bar above the table with `crud-tools.tsx`; `crud-table-view.tsx` the table;
 * `table-columns.tsx` its columns; `use-crud-export.ts` and `use-ranged-export.ts` the exports;
 * `search-form.tsx` the search; `crud-resource.ts` the create / update / delete wiring.
 */

export { SchemaField, SchemaForm } from '../form/schema-field.tsx';
export { CellView } from './cell-view.tsx';
export { type CellLabels, cellText, cellValue, rowsToCsv } from './cells.ts';
export { CrudPage, type CrudPageProps } from './crud-page.tsx';
export { crudResource } from './crud-resource.ts';
export { DescriptionInput } from './description-input.tsx';
export { exportFileName, extensionOfType } from './export-file.ts';
export { mergeIntoPages, type PageMerge, useLivePages } from './live-pages.ts';
export {
  buildPageQuery,
  DEFAULT_PAGE_SIZE,
  FIRST_PAGE,
  PAGE_SIZES,
  PageShapeError,
  readPage,
  searchQuery,
  searchRangeProblem,
} from './page-query.ts';
export { selectionProblem } from './selection.ts';
export { SortIndexInput } from './sort-index-input.tsx';
export { INDEX_COLUMN_WIDTH } from './table-columns.tsx';
export { EXPORTABLE_RANGE_PRESETS, TIME_RANGE_FIELD, timeRangeSearchField } from './time-range-search.ts';
export {
  filterTree,
  flattenTree,
  parentKeys,
  searchTree,
  type TreeSearch,
  treeOptions,
  withoutEmptyChildren,
} from './tree.ts';
export { TreeNodeSelect, type TreeNodeSelectProps } from './tree-node-select.tsx';
export { type TreeEndpoint, useTree, useTreeLoad } from './tree-query.ts';
export { TreeSider, type TreeSiderProps } from './tree-sider.tsx';
export type * from './types.ts';
