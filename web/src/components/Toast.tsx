//! Toasts with the shop's timings: 1 s for success, 7 s for errors, 5 s for warnings,
//! 1 s for "Copied!" and 2 s for a failed copy.

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { COPY_ERROR_TOAST_MS, COPY_TOAST_MS, ERROR_TOAST_MS, TOAST_MS, WARNING_MS } from '@/lib/constants';

type Tone = 'success' | 'error' | 'warning' | 'info';
type Toast = { id: number; tone: Tone; text: string };

type Toasts = {
  success: (text: string) => void;
  error: (text: string) => void;
  warning: (text: string) => void;
  info: (text: string, ms?: number) => void;
  copied: (text: string) => void;
  copyFailed: (text: string) => void;
};

const ToastContext = createContext<Toasts | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  // Timers still pending are cancelled when the provider goes away, so none fires on a
  // page (or a test's document) that no longer exists.
  const timers = useRef(new Set<number>());
  useEffect(() => {
    const pending = timers.current;
    return () => {
      pending.forEach((timer) => window.clearTimeout(timer));
      pending.clear();
    };
  }, []);
  const show = useCallback((tone: Tone, text: string, ms: number) => {
    const id = next.current++;
    setToasts((all) => [...all, { id, tone, text }]);
    const timer = window.setTimeout(() => {
      timers.current.delete(timer);
      setToasts((all) => all.filter((t) => t.id !== id));
    }, ms);
    timers.current.add(timer);
  }, []);
  const api = useMemo<Toasts>(
    () => ({
      success: (text) => show('success', text, TOAST_MS),
      error: (text) => show('error', text, ERROR_TOAST_MS),
      warning: (text) => show('warning', text, WARNING_MS),
      info: (text, ms = TOAST_MS) => show('info', text, ms),
      copied: (text) => show('success', text, COPY_TOAST_MS),
      copyFailed: (text) => show('error', text, COPY_ERROR_TOAST_MS),
    }),
    [show],
  );
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`toast toast-${t.tone}`} role={t.tone === 'error' ? 'alert' : 'status'}>
            {t.text}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): Toasts {
  const ctx = useContext(ToastContext);
  if (!ctx) throw new Error('ToastProvider is missing');
  return ctx;
}
