import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import { type InputHTMLAttributes, type ReactNode, type Ref, useId } from 'react';
import { Icon } from './icon.tsx';

/**
 * A large text input in antd's look with an icon before it, a tool after it (`suffix`), and below it its
 * error (announced when it appears) and notes (`notes`, e.g. a warning announced as status). The label is
 * read by screen readers; the placeholder shows it.
 */
export function TextField({
  label,
  icon,
  error,
  notes,
  suffix,
  inputRef,
  ...input
}: {
  label: string;
  icon: IconDefinition;
  error: string | null;
  notes?: ReactNode;
  suffix?: ReactNode;
  inputRef?: Ref<HTMLInputElement>;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'aria-invalid' | 'aria-describedby' | 'placeholder'>) {
  const help = useId();
  const shown = Boolean(error || notes);
  return (
    <div className={shown ? 'uiot-field uiot-field--help' : 'uiot-field'}>
      <label className={error ? 'uiot-input uiot-input--error' : 'uiot-input'}>
        <span className="uiot-visually-hidden">{label}</span>
        <span className="uiot-input__prefix">
          <Icon icon={icon} />
        </span>
        <input
          ref={inputRef}
          {...input}
          placeholder={label}
          aria-invalid={Boolean(error)}
          aria-describedby={shown ? help : undefined}
        />
        {suffix && <span className="uiot-input__suffix">{suffix}</span>}
      </label>
      <div id={help} className={shown ? 'uiot-field__help' : 'uiot-visually-hidden'}>
        {error && (
          <div className="uiot-field__error" role="alert">
            {error}
          </div>
        )}
        <div role="status">{notes}</div>
      </div>
    </div>
  );
}
