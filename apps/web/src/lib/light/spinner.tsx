/** antd's large spinner (four dots) without antd, with an optional text below; `label` names it for readers. */
export function Spinner({ text, label }: { text?: string; label?: string }) {
  return (
    <span className="uiot-spinner" role="status" aria-label={text ? undefined : label || undefined}>
      <span className="uiot-spinner__dots" aria-hidden="true">
        <i />
        <i />
        <i />
        <i />
      </span>
      {text && <span>{text}</span>}
    </span>
  );
}
