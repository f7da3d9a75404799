import { useRef, useState } from 'react';
import type { z } from 'zod';
import type { CrudForm, DialogMode } from './types.ts';

export interface DialogState<Row> {
  /** Each opening mounts a fresh dialog (and form). */
  session: number;
  open: boolean;
  mode: DialogMode;
  row: Row | null;
  initial: Record<string, unknown>;
}

/**
 * The create / edit dialog's openings: the initial values of each (the record's form values, or the
 * defaults and those given), and closing, which keeps the dialog mounted until its close animation ends.
 */
export function useCrudDialog<Row, S extends z.ZodType>(form: CrudForm<Row, S> | undefined) {
  const [dialog, setDialog] = useState<DialogState<Row> | null>(null);
  const sessions = useRef(0);
  const open = (mode: DialogMode, row: Row | null, defaults?: Record<string, unknown>) => {
    if (!form) return;
    sessions.current += 1;
    const initial =
      mode === 'edit' && row
        ? ((form.toForm ? form.toForm(row) : row) as Record<string, unknown>)
        : { ...(form.defaults as Record<string, unknown> | undefined), ...defaults };
    setDialog({ session: sessions.current, open: true, mode, row, initial });
  };
  const close = () => setDialog((current) => (current ? { ...current, open: false } : current));
  return { dialog, open, close };
}
