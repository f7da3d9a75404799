import type { Endpoint, Page } from '@uiot/contracts';
import type { FormInstance, FormRule } from 'antd';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import type { OutcomeAction } from '../feedback/outcome.ts';
import type { EndpointGate } from '../permission/permission.tsx';
import type { QueryValue, RequestOptions } from '../request/index.ts';

/** The declarations a feature gives the CRUD page kit; see `index.ts` for an example. */

export type RowKey = string | number;
export type CellValue = string | number | boolean | null | undefined;

/** Server sort of spec §7: `sort` (a column's sort name) and `ascending`. */
export interface SortState {
  field: string;
  ascending: boolean;
}

export interface CrudColumn<Row> {
  /** The row field shown and exported (unless `value` is given); also the column's id. */
  key: string;
  /** Translated title; also the CSV header. */
  title: string;
  width?: number;
  align?: 'left' | 'center' | 'right';
  fixed?: 'left' | 'right';
  /** Sorted by the server: `true` sends `key` as `sort`, a string sends that name. */
  sortable?: boolean | string;
  /**
   * How the value reads: `text` (default: one line, cut with a tooltip), `dateTime` (yyyy-MM-dd HH:mm:ss),
   * `boolean` (yes / no), `code` (monospace, cut with a tooltip).
   */
  format?: 'text' | 'dateTime' | 'boolean' | 'code';
  /** The cell's value when it is not the row's `key` field; shown (per `format`) and exported. */
  value?: (row: Row) => CellValue;
  /** A cell of its own (tags, links); the CSV still takes `value` / the field. */
  render?: (row: Row, index: number) => ReactNode;
  /** Hidden until the user shows it in the column settings. */
  defaultHidden?: boolean;
  /** Left out of CSV exports. */
  noExport?: boolean;
}

export interface SelectOption {
  value: string | number | boolean;
  label: string;
  disabled?: boolean;
}

export interface TreeOption {
  value: string;
  title: string;
  disabled?: boolean;
  children?: TreeOption[];
}

interface SearchFieldBase {
  /** Form field name; also the query parameter unless the kind says otherwise. */
  name: string;
  label: string;
  initialValue?: unknown;
  /** Query parameters of a value when the default mapping does not fit. */
  toQuery?: (value: unknown) => Record<string, QueryValue>;
}

/** Quick ranges of a date-time range field, ending now (spec §9). */
export type RangePreset = 'day' | 'week' | 'month' | 'twoMonths' | 'threeMonths' | 'halfYear' | 'year';

/**
 * A search form field: text (trimmed), select, yes / no (a select sending `true` / `false`), date-time range
 * (sent as two parameters, ISO times), a tree select or a control of the page's own. Blank values send
 * nothing. A date-time range whose end is not later than its start is a field error, and nothing is called
 * (spec §5).
 */
export type SearchField =
  | (SearchFieldBase & { kind: 'text'; placeholder?: string; maxLength?: number })
  | (SearchFieldBase & { kind: 'select'; options: readonly SelectOption[]; multiple?: boolean })
  | (SearchFieldBase & { kind: 'yesNo' })
  | (SearchFieldBase & {
      kind: 'dateTimeRange';
      from: string;
      to: string;
      /** Quick ranges offered; default every one of spec §9's date presets. */
      presets?: readonly RangePreset[];
    })
  | (SearchFieldBase & { kind: 'treeSelect'; treeData: readonly TreeOption[] })
  | (SearchFieldBase & {
      kind: 'custom';
      /**
       * The control, for choices no list can hold (a device searched on the server as the user types): it
       * gets the field's value and `onChange`; a blank value sends nothing, any other is sent as it is.
       */
      input: (control: SearchControl) => ReactNode;
    });

/** What a `custom` search control is given by the search form. */
export interface SearchControl {
  value?: unknown;
  onChange?: (value: unknown) => void;
  testId: string;
}

/** A GET endpoint of the contracts answering a page (`pageQuery` → `pageResult(row)`). */
export type PagedEndpoint<Row> = Endpoint<z.ZodType, undefined, z.ZodType<Page<Row>>>;

/** Options for the calls a declaration makes: pass them on to `call(endpoint, input, options)`. */
export type CallOptions = RequestOptions;

/** What row and toolbar actions may do to the page. */
export interface CrudContext<Row> {
  /** Reloads the table (and every cached page of it). */
  refresh(): void;
  openCreate(defaults?: Record<string, unknown>): void;
  openEdit(row: Row): void;
  selectedRows: readonly Row[];
  clearSelection(): void;
  /** The search, sort and fixed parameters of the table now (no paging). */
  query: Record<string, QueryValue>;
  /**
   * Options for calls made in `run`: with an `outcome`, the kit shows the failure itself, so calls are made
   * silent (spec §8 "{failure text}: {error}").
   */
  callOptions: CallOptions;
}

interface ActionBase {
  key: string;
  label: string;
  /**
   * The endpoint the action calls (or whose dialog it opens): without its permission, or with one of its
   * feature flags off, the button is not rendered (spec §5).
   */
  endpoint: EndpointGate;
  danger?: boolean;
  /**
   * With an outcome, `run`'s promise decides the generic success text (then the table refreshes) or the
   * "{failure text}: {error}" text.
   */
  outcome?: OutcomeAction;
}

export interface RowAction<Row> extends ActionBase {
  /** Rows that offer the action (e.g. only editable ones). */
  when?: (row: Row) => boolean;
  /** A question asked first (e.g. 'Reset the password of "x"?'). */
  confirm?: (row: Row) => string;
  /** Listed in the row's "More" menu rather than as a button (pages with many row actions). */
  more?: boolean;
  run: (row: Row, ctx: CrudContext<Row>) => unknown;
}

export interface ToolbarAction<Row> extends ActionBase {
  icon?: ReactNode;
  primary?: boolean;
  /**
   * Selected rows needed: `one` → 'select a row first', `some` → 'tick at least one record'
   * (needs `selection` on the page).
   */
  needs?: 'one' | 'some';
  confirm?: (rows: readonly Row[]) => string;
  run: (rows: readonly Row[], ctx: CrudContext<Row>) => unknown;
}

export type DialogMode = 'create' | 'edit';

/** The dialog form of a page: fields, shared schema, and the create / update calls. */
export interface CrudForm<Row, S extends z.ZodType> {
  /** The shared zod schema of the contracts: it validates each field and shapes the body sent. */
  schema: S;
  /**
   * The form items: `<SchemaField name>` for a field of the schema (label, rule and input from it), or
   * `Form.Item`s with `rule(field)`, which runs the schema for that field (same messages as the server).
   */
  fields: (ctx: {
    mode: DialogMode;
    row: Row | null;
    form: FormInstance;
    rule: (field: keyof z.input<S> & string) => FormRule;
  }) => ReactNode;
  /** The translated label of a field, by the page's key convention: `(field) => t(`role.column.${field}`)`. */
  label?: (field: string) => string;
  /** Prefix of the test ids of the inputs `SchemaField` makes: `<testId>-<field>`. */
  testId?: string;
  /** Values of a new record. */
  defaults?: Partial<z.input<S>>;
  /** The form values of `row` for editing; default the row itself. */
  toForm?: (row: Row) => Partial<z.input<S>>;
  /** Rows that can be edited (with `resource.update`). */
  editable?: (row: Row) => boolean;
  /** Dialog titles; default "Add" / "Edit". */
  title?: { create: string; edit: string };
  /** Spec §9: 50 % by default. */
  width?: number | string;
}

/**
 * The calls that create, update and delete a record, each with the endpoint whose declaration decides who
 * sees its button (`crudResource` builds them from the endpoints).
 */
export interface CrudResource<Row, Values = Record<string, unknown>> {
  create?: { endpoint: EndpointGate; save(values: Values, options: CallOptions): Promise<unknown> };
  update?: { endpoint: EndpointGate; save(values: Values, row: Row, options: CallOptions): Promise<unknown> };
  remove?: { endpoint: EndpointGate; run(row: Row, options: CallOptions): Promise<unknown> };
}

/** The delete of a row (with `resource.remove`). */
export interface CrudRemove<Row> {
  /** Rows that can be deleted. */
  when?: (row: Row) => boolean;
  /** The record's name in the confirmation ('Delete "x"?'). */
  name?: (row: Row) => string;
}

export interface CrudExport {
  /**
   * The page's export endpoint, called with the search parameters for "export all": the file it answers
   * (CSV, xlsx, ...) is saved as it comes, under the server's name (`Content-Disposition`) or the page title
   * with the extension of its `Content-Type`; rows in the envelope are written as CSV. Without it, "export
   * all" pages through the query. Its declaration decides who sees the export buttons; without it, whoever
   * sees the page (its menu key) may export it.
   */
  endpoint?: Endpoint;
  /**
   * "Export this page" through `endpoint` too, with the page's `pageIndex` / `pageSize` (an endpoint that
   * serves a page, e.g. an Excel export). Without it, the page is the CSV of the visible columns.
   */
  pageFromEndpoint?: boolean;
  /** A reason not to export the current search (e.g. no time range), shown instead. */
  check?: (query: Record<string, QueryValue>) => string | null;
  /**
   * The date-time range search field "export all" needs (spec §5: a time must be chosen, at most a year).
   * The search form is checked first, the reason shows on the field, and the form's search is applied to
   * the table and exported.
   */
  range?: string;
}

export interface CrudTree {
  /** Field holding the children; default `children`. */
  childrenKey?: string;
  defaultExpandAll?: boolean;
}

/** A list loader (no paging): tree tables, small lists. Filters by the search query itself. */
export type ListLoader<Row> = (
  query: Record<string, QueryValue>,
  options: CallOptions,
) => Promise<readonly Row[]>;
