//! Modal confirmations and alerts as promises: `await confirm({...})` answers whether the
//! visitor agreed. One dialog at a time, drawn with the native <dialog> element.

import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useT } from '@/i18n';

type Options = {
  title: string;
  text?: ReactNode;
  okLabel?: string;
  cancelLabel?: string;
  tone?: 'info' | 'warning' | 'error' | 'success';
};

type Pending = Options & { kind: 'confirm' | 'alert'; resolve: (ok: boolean) => void };

type Dialogs = {
  confirm: (o: Options) => Promise<boolean>;
  alert: (o: Options) => Promise<void>;
};

const DialogContext = createContext<Dialogs | null>(null);

export function DialogProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const ref = useRef<HTMLDialogElement>(null);
  const t = useT();

  const confirm = useCallback(
    (o: Options) => new Promise<boolean>((resolve) => setPending({ ...o, kind: 'confirm', resolve })),
    [],
  );
  const alert = useCallback(
    (o: Options) =>
      new Promise<void>((resolve) => setPending({ ...o, kind: 'alert', resolve: () => resolve() })),
    [],
  );

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (pending && !el.open) {
      if (typeof el.showModal === 'function') el.showModal();
      else el.setAttribute('open', '');
    }
  }, [pending]);

  const finish = (ok: boolean) => {
    const p = pending;
    ref.current?.close?.();
    ref.current?.removeAttribute('open');
    setPending(null);
    p?.resolve(ok);
  };

  return (
    <DialogContext.Provider value={{ confirm, alert }}>
      {children}
      {pending && (
        <dialog
          ref={ref}
          className={`dialog dialog-${pending.tone ?? 'info'}`}
          aria-labelledby="dialog-title"
          onCancel={(e) => {
            e.preventDefault();
            finish(false);
          }}
        >
          <h2 id="dialog-title">{pending.title}</h2>
          {pending.text !== undefined && <div className="dialog-text">{pending.text}</div>}
          <div className="dialog-actions">
            {pending.kind === 'confirm' && (
              <button type="button" className="btn btn-secondary" onClick={() => finish(false)}>
                {pending.cancelLabel ?? t('cancel')}
              </button>
            )}
            <button type="button" className="btn btn-primary" onClick={() => finish(true)} autoFocus>
              {pending.okLabel ?? t('ok')}
            </button>
          </div>
        </dialog>
      )}
    </DialogContext.Provider>
  );
}

export function useDialog(): Dialogs {
  const ctx = useContext(DialogContext);
  if (!ctx) throw new Error('DialogProvider is missing');
  return ctx;
}
