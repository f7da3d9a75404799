import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormDialog } from '../dialog/form-dialog.tsx';
import { toastFailed, toastSucceeded } from '../feedback/outcome.ts';
import { issueNamePath } from '../form/field-errors.ts';
import { SchemaForm } from '../form/schema-field.tsx';
import { translateIssue, useSchemaRule } from '../form/schema-rules.ts';
import { useLang } from '../i18n/use-lang.ts';
import type { CallOptions, CrudForm, CrudResource, DialogMode } from './types.ts';

/** Calls made by the dialog: not cancelled by other calls, failures shown by the kit as "{text}: {error}". */
const SAVE_OPTIONS: CallOptions = { silent: true, canCancel: false };

/** One opening of the create / edit dialog: keyed by the opening, so each gets a fresh form. */
export function CrudDialog<Row, S extends z.ZodType>({
  id,
  spec,
  resource,
  open,
  mode,
  row,
  initial,
  onClose,
  onSaved,
}: {
  id: string;
  spec: CrudForm<Row, S>;
  resource: CrudResource<Row, z.output<S>>;
  open: boolean;
  mode: DialogMode;
  row: Row | null;
  initial: Record<string, unknown>;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('crud');
  const lang = useLang();
  const [form] = Form.useForm();
  const rule = useSchemaRule(spec.schema);

  const submit = async (values: Record<string, unknown>) => {
    const parsed = spec.schema.safeParse({ ...initial, ...values });
    if (!parsed.success) {
      form.setFields(
        parsed.error.issues.map((issue) => ({
          name: issueNamePath(issue.path.join('.')) as never,
          errors: [translateIssue(issue, lang)],
        })),
      );
      throw parsed.error;
    }
    const outcome = mode === 'create' ? 'create' : 'update';
    try {
      if (mode === 'create') await resource.create?.save(parsed.data, SAVE_OPTIONS);
      else if (row) await resource.update?.save(parsed.data, row, SAVE_OPTIONS);
    } catch (error) {
      toastFailed(outcome, error);
      throw error;
    }
    toastSucceeded(outcome);
    onSaved();
  };

  const title =
    mode === 'create' ? (spec.title?.create ?? t('dialog.create')) : (spec.title?.edit ?? t('dialog.edit'));

  return (
    <FormDialog<Record<string, unknown>>
      open={open}
      title={title}
      form={form}
      onSubmit={submit}
      onClose={onClose}
      initialValues={initial}
      width={spec.width ?? '50%'}
      confirmUnsaved
      testId={`${id}-dialog`}
    >
      <SchemaForm schema={spec.schema} label={spec.label} testId={spec.testId}>
        {spec.fields({ mode, row, form, rule })}
      </SchemaForm>
    </FormDialog>
  );
}
