import { type AnyEndpoint, type CallInput, call } from '../request/index.ts';
import type { CallOptions, CrudResource, RowKey } from './types.ts';

/**
 * The create, update and delete of a resource wired from its endpoints, in the contracts' usual shape:
 * `save` gets the form's values as its body, `update` the values and the row's `id`, `del` the query
 * `{ id }`. `body` turns the form's values into the body when they differ (e.g. fields the form hides).
 * Each call's button is offered to who may call its endpoint (`access` and feature flags).
 */
export function crudResource<Row extends { id: RowKey }, Values = Record<string, unknown>>(endpoints: {
  save?: AnyEndpoint;
  update?: AnyEndpoint;
  del?: AnyEndpoint;
  body?: (values: Values, row: Row | null) => object;
}): CrudResource<Row, Values> {
  const { save, update, del } = endpoints;
  const bodyOf = (values: Values, row: Row | null) =>
    endpoints.body ? endpoints.body(values, row) : (values as object);
  const send = (endpoint: AnyEndpoint, input: object, options: CallOptions) =>
    call(endpoint, input as CallInput<AnyEndpoint>, options);
  return {
    ...(save && {
      create: {
        endpoint: save,
        save: (values, options) => send(save, { body: bodyOf(values, null) }, options),
      },
    }),
    ...(update && {
      update: {
        endpoint: update,
        save: (values, row, options) =>
          send(update, { body: { ...bodyOf(values, row), id: row.id } }, options),
      },
    }),
    ...(del && {
      remove: { endpoint: del, run: (row, options) => send(del, { query: { id: row.id } }, options) },
    }),
  };
}
