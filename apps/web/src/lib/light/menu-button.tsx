import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';

export interface MenuChoice {
  key: string;
  label: ReactNode;
  testId?: string;
}

/**
 * A button opening a menu of choices, the checked one marked (antd's selectable dropdown), usable by
 * keyboard (arrows, Home, End, Escape) and announced as a menu of radio items.
 */
export function MenuButton({
  label,
  icon,
  choices,
  checked,
  onChoose,
  testId,
}: {
  /** The button's accessible name. */
  label: string;
  icon: ReactNode;
  choices: readonly MenuChoice[];
  checked: string;
  onChoose: (key: string) => void;
  testId?: string;
}) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    if (!open) return;
    const index = Math.max(
      0,
      choices.findIndex((choice) => choice.key === checked),
    );
    items.current[index]?.focus();
    const closeOutside = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open, choices, checked]);

  const close = () => {
    setOpen(false);
    trigger.current?.focus();
  };

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const buttons = items.current.filter((item): item is HTMLButtonElement => item !== null);
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const focus = (index: number) => buttons[(index + buttons.length) % buttons.length]?.focus();
    switch (event.key) {
      case 'ArrowDown':
        focus(at + 1);
        break;
      case 'ArrowUp':
        focus(at - 1);
        break;
      case 'Home':
        focus(0);
        break;
      case 'End':
        focus(buttons.length - 1);
        break;
      case 'Escape':
        close();
        break;
      case 'Tab':
        setOpen(false);
        return;
      default:
        return;
    }
    event.preventDefault();
  };

  return (
    <div className="uiot-menu-button" ref={wrapper}>
      <button
        ref={trigger}
        type="button"
        className="uiot-icon-button"
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((shown) => !shown)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
        data-testid={testId}
      >
        {icon}
      </button>
      {open && (
        <div id={menuId} className="uiot-menu" role="menu" aria-label={label} onKeyDown={onMenuKey}>
          {choices.map((choice, index) => (
            <button
              key={choice.key}
              ref={(item) => {
                items.current[index] = item;
              }}
              type="button"
              role="menuitemradio"
              aria-checked={choice.key === checked}
              tabIndex={-1}
              className="uiot-menu__item"
              onClick={() => {
                close();
                if (choice.key !== checked) onChoose(choice.key);
              }}
              data-testid={choice.testId}
            >
              {choice.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
