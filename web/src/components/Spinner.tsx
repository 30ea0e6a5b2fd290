//! A busy indicator with a label for screen readers.

export function Spinner({ label, inline = false }: { label?: string; inline?: boolean }) {
  return (
    <span className={inline ? 'spinner-inline' : 'spinner-block'} role="status">
      <span className="spinner" aria-hidden="true" />
      {label && <span className={inline ? 'visually-hidden' : 'spinner-label'}>{label}</span>}
    </span>
  );
}
